#!/usr/bin/env node
// Measures yaml-language-server the way LspLatency measures hooklens: one real server process over
// stdio JSON-RPC, the same file, the same incremental edits, one at a time, each timed from sending
// didChange to the publishDiagnostics that follows it. Prints one JSON object on standard output.
//
// usage: node latency.js --file F --edits EDITS.json --schema SCHEMA.json [--no-delay]
//   EDITS.json: {"warmup": [change...], "measured": [change...]}, each change an LSP
//   TextDocumentContentChangeEvent with a range.
//   --no-delay starts the server with no-delay.js preloaded, which sets its fixed 200 ms validation
//   delay to 0, to see what validating costs without it.
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');
const { pathToFileURL } = require('url');
const rpc = require('vscode-jsonrpc/node');
const WARM_OPENS = 20;

function args() {
  const out = { noDelay: false };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--no-delay') out.noDelay = true;
    else if (a === '--file') out.file = argv[++i];
    else if (a === '--edits') out.edits = argv[++i];
    else if (a === '--schema') out.schema = argv[++i];
    else throw new Error('unknown argument ' + a);
  }
  if (!out.file || !out.edits || !out.schema) throw new Error('need --file, --edits and --schema');
  return out;
}

// CPU time (user and system) of a process in ms, from /proc, as LspLatency reads it for hooklens.
function cpuMs(pid) {
  const stat = fs.readFileSync('/proc/' + pid + '/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 1000 / 100;
}

async function main() {
  const opt = args();
  const file = path.resolve(opt.file);
  const text = fs.readFileSync(file, 'utf8');
  const edits = JSON.parse(fs.readFileSync(opt.edits, 'utf8'));
  const uri = pathToFileURL(file).href;
  const settings = {
    yaml: {
      validate: true, hover: false, completion: true, format: { enable: false },
      // Both stores would go to the network, which these machines cannot reach.
      schemaStore: { enable: false }, kubernetesCRDStore: { enable: false },
      schemas: { [path.resolve(opt.schema)]: ['*.yaml'] },
    },
  };
  const nodeArgs = [];
  if (opt.noDelay) nodeArgs.push('-r', path.join(__dirname, 'no-delay.js'));
  nodeArgs.push(require.resolve('yaml-language-server/bin/yaml-language-server'), '--stdio');
  const proc = spawn(process.execPath, nodeArgs, { stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(proc.stdout),
    new rpc.StreamMessageWriter(proc.stdin));
  conn.onRequest('workspace/configuration', (p) => p.items.map((it) => !it.section ? settings
    : it.section.split('.').reduce((o, k) => (o ? o[k] : undefined), settings) ?? null));
  conn.onRequest('client/registerCapability', () => null);
  conn.onRequest('window/workDoneProgress/create', () => null);
  let waiter = null;
  let last = null;
  let watched = uri;
  conn.onNotification('textDocument/publishDiagnostics', (p) => {
    if (p.uri !== watched) return;
    last = p;
    if (waiter) { const w = waiter; waiter = null; w(process.hrtime.bigint()); }
  });
  conn.listen();
  const next = () => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no diagnostics within 30 s')), 30000);
    waiter = (t) => { clearTimeout(timer); resolve(t); };
  });

  await conn.sendRequest('initialize', {
    processId: process.pid, rootUri: pathToFileURL(path.dirname(file)).href, workspaceFolders: null,
    capabilities: {
      workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true } },
      textDocument: { publishDiagnostics: { relatedInformation: true }, completion: {} },
    },
  });
  conn.sendNotification('initialized', {});
  conn.sendNotification('workspace/didChangeConfiguration', { settings });

  let version = 1;
  let t0 = process.hrtime.bigint();
  let first = next();
  conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version, text } });
  const firstMs = Number((await first) - t0) / 1e6;
  const firstCount = last.diagnostics.length;

  const run = async (changes) => {
    const samples = [];
    const counts = [];
    for (const change of changes) {
      version++;
      const done = next();
      t0 = process.hrtime.bigint();
      conn.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [change] });
      samples.push(Number((await done) - t0) / 1e6);
      counts.push(last.diagnostics.length);
    }
    return { samples, counts };
  };
  await run(edits.warmup);
  const cpuStart = cpuMs(proc.pid);
  const measured = await run(edits.measured);
  const cpuPerEditMs = (cpuMs(proc.pid) - cpuStart) / edits.measured.length;

  // The same file opened again under new names on the warm server, each closed once its diagnostics arrive.
  const warmOpensMs = [];
  for (let i = 0; i < WARM_OPENS; i++) {
    watched = pathToFileURL(path.join(path.dirname(file), `manifest-open-${i}.yaml`)).href;
    const done = next();
    t0 = process.hrtime.bigint();
    conn.sendNotification('textDocument/didOpen', { textDocument: { uri: watched, languageId: 'yaml', version: 1, text } });
    warmOpensMs.push(Number((await done) - t0) / 1e6);
    conn.sendNotification('textDocument/didClose', { textDocument: { uri: watched } });
  }

  await conn.sendRequest('shutdown');
  conn.sendNotification('exit');
  setTimeout(() => proc.kill(), 2000).unref();
  const version_ = require('yaml-language-server/package.json').version;
  process.stdout.write(JSON.stringify({
    server: 'yaml-language-server ' + version_, node: process.version, noDelay: opt.noDelay,
    firstDiagnosticsMs: firstMs, firstDiagnostics: firstCount,
    samplesMs: measured.samples, diagnosticCounts: measured.counts, cpuPerEditMs, warmOpensMs,
  }) + '\n');
}

main().catch((e) => { console.error(e && e.stack || e); process.exit(1); });
