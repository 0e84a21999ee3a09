import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { handles, isChartTemplate, looksLikeManifest, shouldSend } from '../src/manifest';

interface Case { language: string | null; path: string; text: string; reads: boolean; manifest: boolean }

// The language server's tests (ManifestSelectionTest) run the same table.
const table: { cases: Case[] } = JSON.parse(readFileSync(
  join(__dirname, '..', '..', '..', 'language-server', 'src', 'test', 'resources', 'manifest-selection.json'), 'utf8'));

describe('document selection', () => {
  it('reads and recognises documents as the server does', () => {
    assert.ok(table.cases.length > 0);
    for (const c of table.cases) {
      const language = c.language ?? undefined;
      const json = language?.toLowerCase() === 'json' || c.path.toLowerCase().endsWith('.json');
      assert.equal(handles(language, c.path), c.reads, `reads ${JSON.stringify(c)}`);
      assert.equal(looksLikeManifest(c.text, json), c.manifest, `manifest ${JSON.stringify(c)}`);
      if (!isChartTemplate(c.path)) {
        assert.equal(shouldSend(language, c.path, c.text), c.reads && c.manifest, `sends ${JSON.stringify(c)}`);
      }
    }
  });

  it('sends every chart template, helpers included', () => {
    assert.ok(shouldSend('helm', '/w/chart/templates/_helpers.tpl', '{{- define "x" -}}{{- end -}}'));
    assert.ok(shouldSend('plaintext', '/w/chart/templates/jobs/hook.yaml', '{{ if .Values.x }}'));
    assert.ok(isChartTemplate('C:\\w\\chart\\templates\\a.yaml'));
    assert.ok(!isChartTemplate('/w/templates.yaml'));
    assert.ok(!isChartTemplate('/w/chart/templates/NOTES.txt'));
  });
});
