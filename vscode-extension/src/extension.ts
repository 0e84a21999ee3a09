// The Hooklens extension: starts `hooklens lsp` from the bundled jar and owns only the UI around it
// (status bar, commands, the timeline webview). Every finding, fix and lens comes from the server.
import { promises as fs } from 'node:fs';
import * as net from 'node:net';
import * as vscode from 'vscode';
import {
  CancellationTokenSource,
  DidOpenTextDocumentNotification,
  LanguageClient,
  LanguageClientOptions,
  MessageType,
  Middleware,
  ResponseError,
  ServerOptions,
  ShowMessageRequest,
  ShowDocumentResult,
  ShowMessageRequestParams,
  State,
  StreamInfo,
} from 'vscode-languageclient/node';
import { commandLine, findJava, JavaNotFoundError, serverCommand } from './java';
import { DocumentGate, GateDocument } from './gate';
import { EXTENSIONS, LANGUAGES } from './manifest';
import { settingsPayload } from './settings';
import { timelineHtml } from './timeline';

/** The server's command that runs a container's hooks (the code lenses call it). */
const RUN_HOOK = 'hooklens.runHook';
/** The server's command that lints the workspace folders as `hooklens lint` does; the client registers it. */
const LINT_WORKSPACE = 'hooklens.lintWorkspace';
const SECTION = 'hooklens';

type ServerState = 'starting' | 'ready' | 'error' | 'stopped';

let client: LanguageClient | undefined;
let output: vscode.OutputChannel;
let status: vscode.StatusBarItem;
let extensionContext: vscode.ExtensionContext;
/** Documents the server was told about; others never leave the editor. */
const gate = new DocumentGate();
/** Files "Lint workspace" published on: their diagnostics stay after VS Code closes the document. */
const linted = new Set<string>();
/** Whether a workspace lint is under way, so that what the server publishes is a workspace lint's. */
let linting = false;
let timelinePanel: vscode.WebviewPanel | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  extensionContext = context;
  output = vscode.window.createOutputChannel('Hooklens');
  status = vscode.window.createStatusBarItem('hooklens.status', vscode.StatusBarAlignment.Right, 100);
  status.name = 'Hooklens';
  status.command = 'hooklens.showOutput';
  context.subscriptions.push(output, status);
  context.subscriptions.push(
    vscode.commands.registerCommand('hooklens.showOutput', () => output.show(true)),
    vscode.commands.registerCommand('hooklens.restartServer', () => restart()),
    vscode.commands.registerCommand('hooklens.runHookAtCursor', () => runLensAtCursor('report')),
    vscode.commands.registerCommand('hooklens.showTimeline', () => runLensAtCursor('timeline')),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${SECTION}.java`)) {
        void restart();
      } else if (e.affectsConfiguration(SECTION) && client?.isRunning()) {
        void client.sendNotification('workspace/didChangeConfiguration', { settings: currentSettings() });
      }
    }),
    vscode.workspace.onDidDeleteFiles((e) => e.files.forEach(forgetLinted)),
  );
  await start();
}

export async function deactivate(): Promise<void> {
  await stop();
}

function currentSettings() {
  return settingsPayload(vscode.workspace.getConfiguration(SECTION));
}

function setState(state: ServerState, detail?: string): void {
  const icon = { starting: '$(sync~spin)', ready: '$(check)', error: '$(error)', stopped: '$(circle-slash)' }[state];
  status.text = `${icon} Hooklens`;
  status.tooltip = `Hooklens language server: ${state}${detail ? ` (${detail})` : ''}. Click for its output.`;
  status.backgroundColor = state === 'error' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
  status.show();
}

async function start(): Promise<void> {
  setState('starting');
  let serverOptions: ServerOptions;
  const port = Number.parseInt(process.env.HOOKLENS_SERVER_PORT ?? '', 10);
  if (port > 0) {
    // A server started by hand (`hooklens lsp --port N`), e.g. under a debugger.
    output.appendLine(`Connecting to the Hooklens server on 127.0.0.1:${port} (HOOKLENS_SERVER_PORT)`);
    serverOptions = () =>
      new Promise<StreamInfo>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => resolve({ reader: socket, writer: socket }));
        socket.on('error', reject);
      });
  } else {
    const config = vscode.workspace.getConfiguration(SECTION);
    let runtime;
    try {
      runtime = await findJava(config.get<string>('java.home'), process.env, extensionContext.asAbsolutePath('server/runtime'));
    } catch (e) {
      setState('error', 'no Java 17+');
      const message = e instanceof JavaNotFoundError ? e.message : String(e);
      output.appendLine(message);
      void vscode.window.showErrorMessage(message, 'Open Settings', 'Show Output').then((choice) => {
        if (choice === 'Open Settings') {
          void vscode.commands.executeCommand('workbench.action.openSettings', 'hooklens.java.home');
        } else if (choice === 'Show Output') {
          output.show(true);
        }
      });
      return;
    }
    const jar = extensionContext.asAbsolutePath('server/hooklens.jar');
    const { command, args } = serverCommand(runtime, jar, config.get<string[]>('java.vmargs') ?? []);
    output.appendLine(`Java ${runtime.major} from ${runtime.source}: ${runtime.home}`);
    output.appendLine(`Starting: ${commandLine(command, args)}`);
    serverOptions = { command, args, options: { env: process.env } };
  }

  const selector = [
    ...LANGUAGES.flatMap((language) => ['file', 'untitled'].map((scheme) => ({ scheme, language }))),
    { scheme: 'file', pattern: `**/*{${EXTENSIONS.join(',')}}` },
  ];
  const clientOptions: LanguageClientOptions = {
    documentSelector: selector,
    outputChannel: output,
    initializationOptions: currentSettings(),
    middleware: middleware(),
  };
  const c = new LanguageClient('hooklens', 'Hooklens', serverOptions, clientOptions);
  client = c;
  c.onDidChangeState((e) => {
    if (client !== c) {
      return;
    }
    if (e.newState === State.Running) {
      setState('ready');
    } else if (e.newState === State.Starting) {
      setState('starting');
    } else {
      setState('stopped');
    }
  });
  try {
    await c.start();
    // The consent to run hooks is a modal dialog, not a toast that disappears.
    c.onRequest(ShowMessageRequest.type, (params) => showMessageRequest(params));
  } catch (e) {
    setState('error', 'did not start');
    output.appendLine(`The Hooklens server did not start: ${e}`);
    void vscode.window.showErrorMessage('The Hooklens language server did not start; see its output.', 'Show Output')
      .then((choice) => choice && output.show(true));
  }
}

async function stop(): Promise<void> {
  const c = client;
  client = undefined;
  gate.clear();
  if (c) {
    try {
      await c.stop(10_000);
    } catch (e) {
      output.appendLine(`Stopping the server: ${e}`);
    }
  }
  setState('stopped');
}

async function restart(): Promise<void> {
  await stop();
  await start();
}

function isRunHook(command: vscode.Command | undefined): boolean {
  return command?.command === RUN_HOOK;
}

function gated(document: vscode.TextDocument): GateDocument {
  return { uri: document.uri.toString(), languageId: document.languageId, path: document.uri.path,
    text: document.getText() };
}

function middleware(): Middleware {
  const known = (document: vscode.TextDocument) => gate.knows(document.uri.toString());
  return {
    didOpen: async (document, next) => {
      if (gate.open(gated(document))) {
        await next(document);
      }
    },
    didChange: async (event, next) => {
      const action = gate.change(gated(event.document));
      if (action === 'forward') {
        await next(event);
      } else if (action === 'open' && client) {
        await client.sendNotification(DidOpenTextDocumentNotification.type,
          client.code2ProtocolConverter.asOpenTextDocumentParams(event.document));
      }
    },
    didClose: async (document, next) => {
      if (gate.close(document.uri.toString())) {
        await next(document);
      }
    },
    handleDiagnostics: (uri, diagnostics, next) => {
      if (linting) {
        linted.add(uri.toString());
      }
      // The server clears a file's diagnostics when it is closed; a workspace lint keeps them.
      const open = vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString());
      if (!open && diagnostics.length === 0 && linted.has(uri.toString())) {
        return;
      }
      next(uri, diagnostics);
    },
    provideHover: (document, position, token, next) => (known(document) ? next(document, position, token) : undefined),
    provideCompletionItem: (document, position, context, token, next) =>
      known(document) ? next(document, position, context, token) : undefined,
    provideCodeActions: (document, range, context, token, next) =>
      known(document) ? next(document, range, context, token) : undefined,
    provideDocumentSymbols: (document, token, next) => (known(document) ? next(document, token) : undefined),
    provideInlayHints: (document, range, token, next) => (known(document) ? next(document, range, token) : undefined),
    provideCodeLenses: async (document, token, next) => {
      if (!known(document)) {
        return undefined;
      }
      const lenses = await next(document, token);
      // Restricted Mode: no lens offers to run anything.
      return vscode.workspace.isTrusted ? lenses : lenses?.filter((l) => !isRunHook(l.command));
    },
    executeCommand: async (command, args, next) => {
      if (command === LINT_WORKSPACE) {
        return lintWorkspace(() => next(command, args));
      }
      if (command !== RUN_HOOK) {
        return next(command, args);
      }
      if (!vscode.workspace.isTrusted) {
        const choice = await vscode.window.showWarningMessage(
          'Hooklens does not run hooks in Restricted Mode: trust this workspace first.', 'Manage Workspace Trust');
        if (choice) {
          await vscode.commands.executeCommand('workbench.trust.manage');
        }
        return undefined;
      }
      const result = await next(command, args);
      const show = (args?.[0] as { show?: string } | undefined)?.show;
      if (result && typeof result === 'object' && typeof result.svg === 'string' && show === 'timeline') {
        await showTimeline(result.svg);
      }
      return result;
    },
    workspace: {
      // The server asks for its section: it gets the mapped one, without the client's own keys.
      configuration: async (params, token, next) => {
        const values = await next(params, token);
        if (values instanceof ResponseError) {
          return values;
        }
        return values.map((v, i) => (params.items[i].section === SECTION ? currentSettings().hooklens : v));
      },
    },
    window: {
      showDocument: async (params, next): Promise<ShowDocumentResult> => {
        // The runner's SVG goes to the themed webview, not to a text editor.
        const uri = vscode.Uri.parse(params.uri);
        if (uri.scheme === 'file' && uri.path.toLowerCase().endsWith('.svg')) {
          await showTimeline(uri.fsPath);
          return { success: true };
        }
        const result = await next(params, new CancellationTokenSource().token);
        return result instanceof ResponseError ? { success: false } : result;
      },
    },
  };
}

async function showMessageRequest(params: ShowMessageRequestParams) {
  const items = (params.actions ?? []).map((a) => ({ ...a, isCloseAffordance: a.title === 'Cancel' }));
  const [first, ...rest] = params.message.split('\n');
  const options: vscode.MessageOptions = { modal: true, detail: rest.join('\n') };
  const show = params.type === MessageType.Error ? vscode.window.showErrorMessage
    : params.type === MessageType.Warning ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  const choice = await show(first, options, ...items);
  return choice ? (params.actions ?? []).find((a) => a.title === choice.title) ?? null : null;
}

async function showTimeline(file: string): Promise<void> {
  const svg = await fs.readFile(file, 'utf8');
  if (!timelinePanel) {
    timelinePanel = vscode.window.createWebviewPanel('hooklens.timeline', 'Hooklens: termination timeline',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false }, { enableScripts: false, localResourceRoots: [] });
    timelinePanel.onDidDispose(() => (timelinePanel = undefined));
  }
  timelinePanel.webview.html = timelineHtml(svg, file);
  timelinePanel.reveal(undefined, false);
}

/**
 * Runs the server's lens of the active editor nearest above the cursor: "Run ... locally" (`show` report)
 * or "Show termination timeline" (`show` timeline). The server asks for consent before anything runs.
 */
async function runLensAtCursor(show: 'report' | 'timeline'): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  const commands = client?.initializeResult?.capabilities.executeCommandProvider?.commands ?? [];
  if (!commands.includes(RUN_HOOK)) {
    void vscode.window.showWarningMessage('This Hooklens server does not run hooks (it offers no hooklens.runHook).');
    return;
  }
  if (!editor) {
    void vscode.window.showInformationMessage('Open a manifest with a preStop or postStart hook first.');
    return;
  }
  const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>(
    'vscode.executeCodeLensProvider', editor.document.uri)) ?? [];
  const ours = lenses.filter((l) => isRunHook(l.command)
    && (l.command?.arguments?.[0] as { show?: string } | undefined)?.show === show);
  if (!ours.length) {
    void vscode.window.showInformationMessage(show === 'timeline'
      ? 'No preStop hook here to show a termination timeline for.' : 'No hook here to run.');
    return;
  }
  const line = editor.selection.active.line;
  const above = ours.filter((l) => l.range.start.line <= line).sort((a, b) => b.range.start.line - a.range.start.line);
  let lens = above[0];
  if (!lens || ours.length > 1) {
    const pick = await vscode.window.showQuickPick(
      ours.map((l) => ({ label: l.command!.title, description: `line ${l.range.start.line + 1}`, lens: l })),
      { placeHolder: 'Which hook?' });
    if (!pick) {
      return;
    }
    lens = pick.lens;
  }
  await vscode.commands.executeCommand(lens.command!.command, ...(lens.command!.arguments ?? []));
}

/**
 * The server lints the workspace folders as `hooklens lint` does and publishes every file's diagnostics, so that
 * the Problems panel holds them with no editor open; they stay until a file is linted again or deleted.
 */
async function lintWorkspace(run: () => Promise<unknown>): Promise<unknown> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification,
    title: 'Hooklens: linting the workspace' }, async () => {
    linting = true;
    let result: unknown;
    try {
      result = await run();
    } finally {
      linting = false;
    }
    const answer = result as { status?: string; files?: number; findings?: number } | undefined;
    if (answer?.status === 'linted') {
      output.appendLine(`Lint workspace: ${answer.findings} findings in ${answer.files} files`);
      void vscode.window.showInformationMessage(
        `Hooklens: ${answer.findings} findings in ${answer.files} files; see the Problems panel.`);
    }
    return result;
  });
}

function forgetLinted(uri: vscode.Uri): void {
  if (linted.delete(uri.toString())) {
    client?.diagnostics?.delete(uri);
  }
}
