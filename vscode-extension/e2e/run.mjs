// End-to-end test in a real VS Code: code-server 4.100.3 on loopback with the packaged .vsix installed,
// driven by Debian's Chromium through playwright-core. It asserts what a user sees: hooklens diagnostics in
// the Problems panel, a hover, a quick fix that makes its diagnostic go, a chart template's finding from the
// rendered chart and, when the server offers them,
// the run-preStop code lens producing the timeline webview after the consent dialog. Screenshots go to
// target/e2e/screenshots/, and on failure to target/e2e/; `npm run screenshots` runs it with
// HOOKLENS_SCREENSHOTS=media to refresh the ones the README uses.
import { spawn, execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = join(dirname(fileURLToPath(import.meta.url)), '..');
const { version } = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));
const vsix = join(here, 'target', `hooklens-${version}.vsix`);
const work = join(here, 'target', 'e2e');
const ws = join(work, 'workspace');
const media = process.env.HOOKLENS_SCREENSHOTS === 'media' ? join(here, 'media') : join(work, 'screenshots');
const browserPath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const jar = join(here, '..', 'language-server', 'target', 'hooklens.jar');

let passed = 0;
let failed = 0;
let server;
let browser;
let page;

function fail(message) {
  throw new Error(message);
}

async function step(name, fn) {
  const started = Date.now();
  try {
    await fn();
    passed++;
    console.log(`ok - ${name} (${Date.now() - started} ms)`);
  } catch (e) {
    failed++;
    console.log(`not ok - ${name}: ${e.message}`);
    if (page) {
      const shot = join(work, `failure-${name.replace(/\W+/g, '-')}.png`);
      await page.screenshot({ path: shot }).catch(() => {});
      console.log(`  screenshot: ${shot}`);
    }
    throw e;
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function waitFor(what, timeoutMs, probe) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) {
      return value;
    }
    if (Date.now() > until) {
      fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Kills code-server's whole process group (its file watcher and extension host with it). */
function stopServer() {
  if (server?.pid) {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  }
}

function serverHasHookRunner() {
  // The code lenses ("Run preStop locally") come with the hook runner in the server.
  const listing = execFileSync('unzip', ['-l', jar], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return listing.includes('io/hooklens/lsp/HookRunService.class');
}

async function problemsText() {
  return (await page.locator('.markers-panel').innerText().catch(() => '')) ?? '';
}

/** Opens a file from the Explorer, pinned (a double click), so that opening the next keeps it open. */
async function openFile(name) {
  await page.getByRole('treeitem', { name: new RegExp(`^${name.replace('.', '\\.')}`) }).first().dblclick();
  await page.locator('.tab.active', { hasText: name }).waitFor({ timeout: 15_000 });
  await page.waitForTimeout(300);
}

async function runCommand(title) {
  await page.keyboard.press('F1');
  await page.waitForSelector('.quick-input-widget input', { state: 'visible', timeout: 10_000 });
  await page.keyboard.type(title);
  await page.waitForTimeout(600);
  await page.keyboard.press('Enter');
}

async function main() {
  if (!existsSync(vsix)) {
    fail(`${vsix} is missing: run npm run package first`);
  }
  const codeServer = join(execFileSync(join(here, 'e2e', 'install-code-server.sh'),
    { stdio: ['ignore', 'pipe', 'inherit'] }).toString().trim(), 'bin', 'code-server');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(media, { recursive: true });
  cpSync(join(here, 'e2e', 'fixtures'), ws, { recursive: true });
  const data = join(work, 'data');
  mkdirSync(join(data, 'User'), { recursive: true });
  writeFileSync(join(data, 'User', 'settings.json'), JSON.stringify({
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.colorTheme': 'Default Dark Modern',
    'security.workspace.trust.enabled': false,
    'telemetry.telemetryLevel': 'off',
    'extensions.autoCheckUpdates': false,
    'update.mode': 'none',
    'editor.hover.delay': 200,
    'editor.codeLens': true,
    'git.enabled': false,
    'git.openRepositoryInParentFolders': 'never',
  }, null, 2));
  const extensions = join(work, 'extensions');
  const port = await freePort();
  writeFileSync(join(work, 'config.yaml'), 'bind-addr: 127.0.0.1:' + port + '\nauth: none\ncert: false\n');
  execFileSync(codeServer, ['--config', join(work, 'config.yaml'), '--user-data-dir', data, '--extensions-dir', extensions, '--install-extension', vsix],
    { stdio: 'inherit', timeout: 120_000 });

  // Its own process group, so that stopping it also stops the file watcher and extension host it forks.
  server = spawn(codeServer, ['--config', join(work, 'config.yaml'), '--bind-addr', `127.0.0.1:${port}`,
    '--auth', 'none', '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust',
    '--user-data-dir', data, '--extensions-dir', extensions, ws],
  { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let serverLog = '';
  server.stdout.on('data', (d) => (serverLog += d));
  server.stderr.on('data', (d) => (serverLog += d));
  const base = `http://127.0.0.1:${port}`;
  await waitFor('code-server /healthz', 60_000, async () => {
    try {
      return (await fetch(`${base}/healthz`)).ok;
    } catch {
      return false;
    }
  }).catch((e) => fail(`${e.message}\n${serverLog}`));

  browser = await chromium.launch({ executablePath: browserPath, headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'] });
  page = await browser.newPage({ viewport: { width: 1400, height: 850 } });
  await page.goto(`${base}/?folder=${encodeURIComponent(ws)}`, { waitUntil: 'domcontentloaded' });
  await page.waitForSelector('.monaco-workbench', { timeout: 60_000 });
  await page.waitForSelector('.explorer-folders-view', { timeout: 60_000 });

  await step('diagnostics in the Problems panel', async () => {
    await openFile('web.yaml');
    await page.keyboard.press('Control+Shift+M');
    await page.waitForSelector('.markers-panel', { timeout: 15_000 });
    // The first check waits for the JVM to start.
    await waitFor('HL401 in the Problems panel', 90_000, async () => (await problemsText()).includes('HL401'));
    await openFile('migrate-job.yaml');
    await waitFor('HL201 in the Problems panel', 30_000, async () => (await problemsText()).includes('HL201'));
    const text = await problemsText();
    if (!/hooklens/.test(text)) {
      fail(`the Problems panel names no hooklens source:\n${text}`);
    }
    // docker-compose.yml is never sent to the server; open it and check nothing of it is reported.
    await openFile('docker-compose.yml');
    await page.waitForTimeout(1500);
    if ((await problemsText()).includes('docker-compose')) {
      fail('docker-compose.yml got diagnostics');
    }
    await openFile('web.yaml');
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(media, 'problems.png') });
  });

  await step('status bar shows the server ready', async () => {
    await waitFor('the Hooklens status item', 10_000, async () =>
      (await page.locator('.statusbar-item', { hasText: 'Hooklens' }).count()) > 0);
    const label = await page.locator('.statusbar-item', { hasText: 'Hooklens' }).first().getAttribute('aria-label');
    if (!/Hooklens/.test(label ?? '')) {
      fail(`status item label: ${label}`);
    }
  });

  await step('hover on preStop', async () => {
    const word = page.locator('.view-lines .view-line span', { hasText: /^preStop$/ }).first();
    await word.waitFor({ timeout: 10_000 });
    await word.hover();
    const hover = page.locator('.monaco-hover:not(.hidden)');
    await waitFor('a hover about the grace period', 20_000, async () =>
      /grace/i.test((await hover.innerText().catch(() => '')) ?? ''));
    await page.waitForTimeout(800);
    await page.screenshot({ path: join(media, 'hover.png') });
    await page.mouse.move(5, 5);
    await page.keyboard.press('Escape');
  });

  await step('quick fix applied and the diagnostic gone', async () => {
    await openFile('migrate-job.yaml');
    await page.locator('.view-lines').click();
    // Go to the error, then open the quick fixes there.
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('F8');
    await page.waitForTimeout(500);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+.');
    const fix = page.locator('.action-widget .monaco-list-row', { hasText: /pre-install/ }).first();
    await fix.waitFor({ timeout: 20_000 });
    await page.screenshot({ path: join(media, 'quick-fix.png') });
    // The menu sits under a pointer block: choose by keyboard, as a user would with Ctrl+.
    for (let i = 0; i < 10 && !/focused/.test((await fix.getAttribute('class')) ?? ''); i++) {
      await page.keyboard.press('ArrowDown');
    }
    await page.keyboard.press('Enter');
    await waitFor('the fixed text in the editor', 10_000, async () =>
      (await page.locator('.view-lines').innerText()).includes('pre-install'));
    await waitFor('HL201 to leave the Problems panel', 20_000, async () => !(await problemsText()).includes('HL201'));
    if (!(await problemsText()).includes('HL401')) {
      fail('HL401 of the other file went away too');
    }
  });

  await step('lint workspace fills the Problems panel with no editor open', async () => {
    await runCommand('View: Close All Editors');
    await waitFor('the Problems panel to empty', 20_000, async () => !(await problemsText()).includes('HL401'));
    await runCommand('Hooklens: Lint Workspace');
    await waitFor('HL401 back in the Problems panel', 30_000, async () => (await problemsText()).includes('HL401'));
    await page.screenshot({ path: join(media, 'lint-workspace.png') });
  });

  await step('a rule turned off in the settings goes away live', async () => {
    await openFile('web.yaml');
    await waitFor('HL125 in the Problems panel', 20_000, async () => (await problemsText()).includes('HL125'));
    mkdirSync(join(ws, '.vscode'), { recursive: true });
    writeFileSync(join(ws, '.vscode', 'settings.json'), JSON.stringify({ 'hooklens.rules': { HL125: 'off' } }));
    await waitFor('HL125 to leave the Problems panel', 30_000, async () => !(await problemsText()).includes('HL125'));
    if (!(await problemsText()).includes('HL401')) {
      fail('HL401 went away with HL125');
    }
  });

  await step('a chart template shows what the rendered chart does', async () => {
    // restartPolicy comes from values.yaml: only Helm's rendering tells that the test Pod never completes.
    await page.getByRole('treeitem', { name: /^chart/ }).first().click();
    await page.getByRole('treeitem', { name: /^templates/ }).first().click();
    await openFile('smoke-test.yaml');
    await waitFor('HL216 with its values set in the Problems panel', 60_000, async () => {
      const text = await problemsText();
      return text.includes('HL216') && text.includes('[values: values.yaml]');
    });
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(media, 'chart.png') });
  });

  if (serverHasHookRunner()) {
    await step('code lens runs preStop and shows the timeline', async () => {
      // A container with a command: the runner refuses image entrypoints it cannot know.
      await openFile('overrun.yaml');
      const lens = page.locator('.codelens-decoration a', { hasText: 'Show termination timeline' }).first();
      await lens.waitFor({ timeout: 30_000 });
      await page.screenshot({ path: join(media, 'code-lens.png') });
      await lens.click();
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.waitFor({ timeout: 30_000 });
      await page.screenshot({ path: join(media, 'consent.png') });
      await dialog.getByRole('button', { name: 'Run' }).click();
      const webview = page.locator('.tab', { hasText: 'termination timeline' });
      await webview.waitFor({ timeout: 120_000 });
      await waitFor('the SVG in the timeline webview', 30_000, async () => {
        for (const frame of page.frames()) {
          if ((await frame.locator('.timeline svg').count().catch(() => 0)) > 0) {
            return true;
          }
        }
        return false;
      });
      await page.waitForTimeout(500);
      await page.screenshot({ path: join(media, 'timeline.png') });
    });
  } else {
    console.log('# not run: code lens and timeline (this server has no hooklens.runHook)');
  }
}

let error;
try {
  await main();
} catch (e) {
  error = e;
} finally {
  await browser?.close().catch(() => {});
  stopServer();
}
if (error) {
  console.error(error.stack ?? String(error));
  failed = Math.max(failed, 1);
}
console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
