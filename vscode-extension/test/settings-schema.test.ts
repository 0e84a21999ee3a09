import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { serverSettings } from '../src/settings';

// The server's settings are declared once, in schemas/settings.schema.json; the language server's tests hold
// its reader to it, and these hold the extension's contribution and mapping to it.
const root = join(__dirname, '..', '..', '..');
type Schema = Record<string, any>;
const schema: Schema = JSON.parse(readFileSync(join(root, 'schemas', 'settings.schema.json'), 'utf8'));
const contributed: Record<string, Schema> = JSON.parse(readFileSync(join(root, 'vscode-extension', 'package.json'), 'utf8'))
  .contributes.configuration.properties;

// Settings of the extension itself, which never reach the server.
const CLIENT_ONLY = ['hooklens.java.home', 'hooklens.java.vmargs', 'hooklens.trace.server'];
const SCHEMA_CLIENT_KEYS = ['trace'];

/** The schema's leaf settings by their dotted name under hooklens. */
function leaves(node: Schema = schema, prefix = 'hooklens'): Map<string, Schema> {
  const out = new Map<string, Schema>();
  for (const [key, value] of Object.entries<Schema>(node.properties ?? {})) {
    if (node === schema && SCHEMA_CLIENT_KEYS.includes(key)) {
      continue;
    }
    if (value.properties) {
      leaves(value, `${prefix}.${key}`).forEach((v, k) => out.set(k, v));
    } else {
      out.set(`${prefix}.${key}`, value);
    }
  }
  return out;
}

function types(s: Schema): string[] {
  return Array.isArray(s.type) ? s.type : s.type === undefined ? [] : [s.type];
}

describe('settings schema', () => {
  const server = leaves();

  it('contributes exactly the settings the schema declares, plus the client-only ones', () => {
    const names = Object.keys(contributed).filter((k) => !CLIENT_ONLY.includes(k)).sort();
    assert.deepEqual(names, [...server.keys()].sort());
  });

  it('describes each setting as the schema does', () => {
    for (const [name, leaf] of server) {
      const p = contributed[name];
      assert.equal(p.markdownDescription, leaf.description, name);
      for (const key of ['enum', 'minimum', 'maximum', 'items', 'additionalProperties']) {
        assert.deepEqual(p[key], leaf[key], `${name} ${key}`);
      }
      if (leaf.default !== undefined) {
        assert.deepEqual(p.default, leaf.default, `${name} default`);
      }
      // An editor can only offer what the server reads; the server also reads numbers for a version.
      for (const t of types(p)) {
        assert.ok(types(leaf).includes(t), `${name}: type ${t} is not in the schema`);
      }
      // The editor's empty text means "not set", which the server never sees.
      assert.equal(p.pattern, leaf.pattern === undefined ? undefined : `^(${leaf.pattern.slice(1, -1)})?$`, name);
    }
  });

  it('sends every setting under the path the schema gives it', () => {
    const values: Record<string, unknown> = {};
    for (const [name, leaf] of server) {
      const sample = leaf.examples?.[0] ?? leaf.enum?.find((v: unknown) => v !== null) ?? leaf.maximum;
      assert.notEqual(sample, undefined, `${name} needs an example`);
      values[name.slice('hooklens.'.length)] = sample;
    }
    const sent = serverSettings({ get: <T>(key: string) => values[key] as T | undefined }) as Record<string, any>;
    for (const name of server.keys()) {
      const path = name.split('.').slice(1);
      const value = path.reduce((at: any, key) => at?.[key], sent);
      assert.notEqual(value, undefined, `${name} is not sent`);
    }
  });
});
