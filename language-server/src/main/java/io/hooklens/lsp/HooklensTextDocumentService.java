package io.hooklens.lsp;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.CodeActionParams;
import org.eclipse.lsp4j.CodeLens;
import org.eclipse.lsp4j.CodeLensParams;
import org.eclipse.lsp4j.Command;
import org.eclipse.lsp4j.CompletionItem;
import org.eclipse.lsp4j.CompletionList;
import org.eclipse.lsp4j.CompletionParams;
import org.eclipse.lsp4j.DidChangeTextDocumentParams;
import org.eclipse.lsp4j.DidCloseTextDocumentParams;
import org.eclipse.lsp4j.DidOpenTextDocumentParams;
import org.eclipse.lsp4j.DidSaveTextDocumentParams;
import org.eclipse.lsp4j.DocumentSymbol;
import org.eclipse.lsp4j.DocumentSymbolParams;
import org.eclipse.lsp4j.Hover;
import org.eclipse.lsp4j.HoverParams;
import org.eclipse.lsp4j.InlayHint;
import org.eclipse.lsp4j.InlayHintParams;
import org.eclipse.lsp4j.SymbolInformation;
import org.eclipse.lsp4j.TextDocumentItem;
import org.eclipse.lsp4j.jsonrpc.CompletableFutures;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.services.TextDocumentService;

/**
 * The {@code textDocument/*} façade: keeps the document store in step with the client, on the
 * protocol thread and in message order, and hands everything else to the feature services.
 */
final class HooklensTextDocumentService implements TextDocumentService {
  private final DocumentStore store;
  private final Analyzer analyzer;
  private final DiagnosticsService diagnostics;
  private final DocumentSymbolsService symbols;
  private final CodeActionsService codeActions;
  private final Runnable configFileSaved;
  private final Executor executor;
  private final ClientLog log;
  private final HookAssist assist;
  private final RunLenses lenses;
  private final ChartCheckService charts;

  HooklensTextDocumentService(DocumentStore store, Analyzer analyzer, DiagnosticsService diagnostics,
      DocumentSymbolsService symbols, CodeActionsService codeActions, Runnable configFileSaved, Executor executor,
      ClientLog log, HookAssist assist, RunLenses lenses, ChartCheckService charts) {
    this.codeActions = codeActions;
    this.store = store;
    this.analyzer = analyzer;
    this.diagnostics = diagnostics;
    this.symbols = symbols;
    this.configFileSaved = configFileSaved;
    this.executor = executor;
    this.log = log;
    this.assist = assist;
    this.lenses = lenses;
    this.charts = charts;
  }

  @Override
  public void didOpen(DidOpenTextDocumentParams params) {
    WarmUp.enough();
    TextDocumentItem item = params.getTextDocument();
    if (!ManifestFiles.handles(item.getUri(), item.getLanguageId())) {
      return;
    }
    String text = item.getText() == null ? "" : item.getText();
    diagnostics.now(store.open(item.getUri(), item.getLanguageId(), item.getVersion(), text));
    charts.touched(item.getUri());
  }

  @Override
  public void didChange(DidChangeTextDocumentParams params) {
    String uri = params.getTextDocument().getUri();
    try {
      TextDocument doc = store.change(uri, params.getTextDocument().getVersion(), params.getContentChanges());
      if (doc != null) {
        diagnostics.afterEdit(doc);
      }
    } catch (RuntimeException e) {
      // A change the text cannot take means client and server disagree; say so rather than go on silently.
      log.error("cannot apply a change to " + uri + "; close and reopen the file to resynchronise", e);
    }
  }

  @Override
  public void didClose(DidCloseTextDocumentParams params) {
    String uri = params.getTextDocument().getUri();
    if (store.close(uri) != null) {
      diagnostics.closed(uri);
    }
  }

  @Override
  public void didSave(DidSaveTextDocumentParams params) {
    // For clients that do not watch files for us: saving a configuration file in the editor is a change.
    if (ConfigService.isConfigFile(params.getTextDocument().getUri())) {
      configFileSaved.run();
    } else {
      charts.touched(params.getTextDocument().getUri());
    }
  }

  @Override
  public CompletableFuture<List<Either<Command, CodeAction>>> codeAction(CodeActionParams params) {
    String uri = params.getTextDocument().getUri();
    return CompletableFutures.computeAsync(executor, cancel -> {
      TextDocument doc = store.get(uri);
      return doc == null ? List.of() : codeActions.actions(doc, params);
    });
  }

  @Override
  public CompletableFuture<List<Either<SymbolInformation, DocumentSymbol>>> documentSymbol(
      DocumentSymbolParams params) {
    String uri = params.getTextDocument().getUri();
    return CompletableFutures.computeAsync(executor, cancel -> {
      TextDocument doc = store.get(uri);
      if (doc == null) {
        return List.of();
      }
      Analyzer.Parsed parsed = analyzer.parse(doc);
      cancel.checkCanceled();
      return symbols.symbols(parsed.model(), doc.text()).stream()
          .map(Either::<SymbolInformation, DocumentSymbol>forRight).toList();
    });
  }

  @Override
  public CompletableFuture<Either<List<CompletionItem>, CompletionList>> completion(CompletionParams params) {
    return assist.completion(params);
  }

  @Override
  public CompletableFuture<Hover> hover(HoverParams params) {
    return assist.hover(params);
  }

  @Override
  public CompletableFuture<List<? extends CodeLens>> codeLens(CodeLensParams params) {
    String uri = params.getTextDocument().getUri();
    return CompletableFutures.computeAsync(executor, cancel -> {
      TextDocument doc = store.get(uri);
      return doc == null ? List.<CodeLens>of() : lenses.lenses(doc);
    });
  }

  @Override
  public CompletableFuture<List<InlayHint>> inlayHint(InlayHintParams params) {
    return assist.inlayHints(params);
  }
}
