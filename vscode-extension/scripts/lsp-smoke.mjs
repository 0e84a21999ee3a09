// Starts the language server with a given java over stdio, opens a manifest with a known defect and a Helm
// chart template, and exits 0 once the server has published a diagnostic for the manifest and shut down
// cleanly: the check that a runtime can serve the editor.
//   node scripts/lsp-smoke.mjs JAVA JAR
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [java, jar] = process.argv.slice(2);
if (!java || !jar) {
  console.error('usage: node scripts/lsp-smoke.mjs JAVA JAR');
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'hooklens-lsp-smoke-'));
// A preStop sleep longer than the default 30 s grace period: the kubelet kills it before it ends.
const manifest = join(dir, 'pod.yaml');
const text = `apiVersion: v1
kind: Pod
metadata: {name: smoke}
spec:
  containers:
    - {name: app, image: busybox, lifecycle: {preStop: {exec: {command: [sleep, "45"]}}}}
`;
writeFileSync(manifest, text);
const uri = pathToFileURL(manifest).href;

const server = spawn(java, ['-XX:+UseSerialGC', '-Xss4m', '-jar', jar, 'lsp'], { stdio: ['pipe', 'pipe', 'inherit'] });
const timer = setTimeout(() => fail('no diagnostics within 120 s'), 120_000);
let buffer = Buffer.alloc(0);
let id = 0;
const pending = new Map();

function fail(why) {
  console.error(`lsp-smoke: ${why}`);
  server.kill();
  rmSync(dir, { recursive: true, force: true });
  process.exit(1);
}

function send(message) {
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }), 'utf8');
  server.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
  server.stdin.write(body);
}

function request(method, params) {
  id += 1;
  send({ id, method, params });
  return new Promise((resolve) => pending.set(id, resolve));
}

server.on('error', (e) => fail(`cannot start ${java}: ${e.message}`));
server.on('exit', (code) => {
  if (pending.size || !done) {
    fail(`the server exited early (code ${code})`);
  }
});
let done = false;
server.stdout.on('data', (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const end = buffer.indexOf('\r\n\r\n');
    if (end < 0) {
      return;
    }
    const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, end).toString('ascii'))?.[1]);
    if (buffer.length < end + 4 + length) {
      return;
    }
    const message = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString('utf8'));
    buffer = buffer.subarray(end + 4 + length);
    if (message.id !== undefined && pending.has(message.id)) {
      pending.get(message.id)(message);
      pending.delete(message.id);
    } else if (message.method === 'textDocument/publishDiagnostics' && message.params.uri === uri
        && message.params.diagnostics.length > 0) {
      void finish(message.params.diagnostics);
    } else if (message.id !== undefined && message.method) {
      // A request from the server (configuration, registration): an empty answer is enough here.
      send({ id: message.id, result: null });
    }
  }
});

async function finish(diagnostics) {
  if (done) {
    return;
  }
  done = true;
  clearTimeout(timer);
  for (const d of diagnostics) {
    console.log(`${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code ?? ''} ${d.message}`);
  }
  await request('shutdown', null);
  send({ method: 'exit' });
  server.on('exit', (code) => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(code === 0 ? 0 : 1);
  });
}

const init = await request('initialize', { processId: process.pid, rootUri: pathToFileURL(dir).href, capabilities: {} });
if (init.error) {
  fail(`initialize failed: ${init.error.message}`);
}
send({ method: 'initialized', params: {} });
send({ method: 'textDocument/didOpen', params: { textDocument: { uri, languageId: 'yaml', version: 1, text } } });
