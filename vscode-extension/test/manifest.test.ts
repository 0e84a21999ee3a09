import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { handles, isChartTemplate, looksLikeManifest, shouldSend } from '../src/manifest';

describe('document selection', () => {
  it('sends YAML manifests, also with a document marker, a flow mapping or quoted keys', () => {
    assert.ok(shouldSend('yaml', '/w/web.yaml', 'apiVersion: v1\nkind: Pod\n'));
    assert.ok(shouldSend('yaml', '/w/a.yaml', '# comment\n--- {apiVersion: v1, kind: Pod}\n'));
    assert.ok(shouldSend('yaml', '/w/a.yaml', '"kind": Pod\n'));
    assert.ok(shouldSend('yaml', '/w/list.yaml', 'items: []\n---\nkind: ConfigMap\n'));
  });

  it('keeps other YAML in the editor', () => {
    assert.ok(!shouldSend('yaml', '/w/docker-compose.yml', 'services:\n  web:\n    image: nginx\n'));
    assert.ok(!shouldSend('yaml', '/w/.github/workflows/ci.yml', 'on: push\njobs:\n  build:\n    kind: x\n'));
    assert.ok(!shouldSend('yaml', '/w/a.yaml', ''));
  });

  it('wants both apiVersion and kind in JSON', () => {
    assert.ok(shouldSend('json', '/w/pod.json', '{\n  "apiVersion": "v1",\n  "kind": "Pod"\n}'));
    assert.ok(!shouldSend('json', '/w/.vscode/tasks.json', '{"tasks": [{"group": {"kind": "build"}}]}'));
    assert.ok(shouldSend(undefined, '/w/pod.JSON', '{"kind": "Pod", "apiVersion": "v1"}'));
  });

  it('sends every chart template, helpers included', () => {
    assert.ok(shouldSend('helm', '/w/chart/templates/_helpers.tpl', '{{- define "x" -}}{{- end -}}'));
    assert.ok(shouldSend('plaintext', '/w/chart/templates/jobs/hook.yaml', '{{ if .Values.x }}'));
    assert.ok(isChartTemplate('C:\\w\\chart\\templates\\a.yaml'));
    assert.ok(!isChartTemplate('/w/templates.yaml'));
    assert.ok(!isChartTemplate('/w/chart/templates/NOTES.txt'));
  });

  it('reads only the languages and extensions the server reads', () => {
    assert.ok(handles('YAML', '/w/x'));
    assert.ok(handles('plaintext', '/w/x.yml'));
    assert.ok(!handles('plaintext', '/w/x.txt'));
    assert.ok(!shouldSend('markdown', '/w/README.md', 'apiVersion: v1\nkind: Pod\n'));
  });

  it('needs the key at column 0 in YAML, as the server does', () => {
    assert.ok(!looksLikeManifest('spec:\n  kind: Pod\n', false));
    assert.ok(!looksLikeManifest('patches:\n  - target:\n      kind: Deployment\n', false));
    assert.ok(looksLikeManifest('{{- if .Values.on }}\napiVersion: v1\n{{- end }}\n', false));
  });
});
