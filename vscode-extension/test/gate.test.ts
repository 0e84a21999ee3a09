import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DocumentGate, GateDocument } from '../src/gate';

function doc(path: string, text: string, languageId = 'yaml'): GateDocument {
  return { uri: `file://${path}`, languageId, path, text };
}

describe('document gate', () => {
  it('holds back a file that is not a manifest: its opening, edits and closing', () => {
    const gate = new DocumentGate();
    const compose = doc('/w/docker-compose.yml', 'services:\n  web:\n    image: nginx\n');
    assert.equal(gate.open(compose), false);
    assert.equal(gate.change({ ...compose, text: `${compose.text}    ports: ["80:80"]\n` }), 'hold');
    assert.equal(gate.knows(compose.uri), false);
    assert.equal(gate.close(compose.uri), false);
  });

  it('sends a manifest and then every edit, even one that makes it look like something else', () => {
    const gate = new DocumentGate();
    const pod = doc('/w/pod.yaml', 'apiVersion: v1\nkind: Pod\n');
    assert.equal(gate.open(pod), true);
    assert.equal(gate.knows(pod.uri), true);
    assert.equal(gate.change({ ...pod, text: '' }), 'forward');
    assert.equal(gate.close(pod.uri), true);
    assert.equal(gate.knows(pod.uri), false);
  });

  it('opens a held document whole once it becomes a manifest, then forwards', () => {
    const gate = new DocumentGate();
    const draft = doc('/w/new.yaml', 'metadata:\n  name: web\n');
    assert.equal(gate.open(draft), false);
    assert.equal(gate.change({ ...draft, text: 'kind: Pod\nmetadata:\n  name: web\n' }), 'open');
    assert.equal(gate.change({ ...draft, text: 'kind: Pod\nmetadata:\n  name: web2\n' }), 'forward');
  });

  it('sends chart templates and JSON manifests, not other JSON', () => {
    const gate = new DocumentGate();
    assert.equal(gate.open(doc('/w/chart/templates/_helpers.tpl', '{{- define "x" -}}{{- end -}}', 'helm')), true);
    assert.equal(gate.open(doc('/w/pod.json', '{"apiVersion": "v1", "kind": "Pod"}', 'json')), true);
    assert.equal(gate.open(doc('/w/.vscode/tasks.json', '{"tasks": [{"group": {"kind": "build"}}]}', 'json')), false);
  });

  it('forgets everything for a new server', () => {
    const gate = new DocumentGate();
    const pod = doc('/w/pod.yaml', 'kind: Pod\n');
    gate.open(pod);
    gate.clear();
    assert.equal(gate.knows(pod.uri), false);
    assert.equal(gate.change(pod), 'open');
  });
});
