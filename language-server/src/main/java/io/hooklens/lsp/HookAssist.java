package io.hooklens.lsp;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.eclipse.lsp4j.ClientCapabilities;
import org.eclipse.lsp4j.CompletionItem;
import org.eclipse.lsp4j.CompletionList;
import org.eclipse.lsp4j.CompletionOptions;
import org.eclipse.lsp4j.CompletionParams;
import org.eclipse.lsp4j.Hover;
import org.eclipse.lsp4j.HoverParams;
import org.eclipse.lsp4j.InlayHint;
import org.eclipse.lsp4j.InlayHintParams;
import org.eclipse.lsp4j.ServerCapabilities;
import org.eclipse.lsp4j.jsonrpc.CompletableFutures;
import org.eclipse.lsp4j.jsonrpc.messages.Either;

/**
 * The requests about a place in a document: completion, hover and inlay hints. Each kind runs on a worker
 * of its own, never behind a lint on the diagnostics workers, and completion never behind a hover. A
 * request that fails is logged and answered with nothing: broken text never makes a request an error.
 */
final class HookAssist {
  /** Characters after which a client asks again: a key's colon, a list's comma, a space, an opening quote. */
  static final List<String> TRIGGERS = List.of(":", ",", " ", "\"");

  private final DocumentStore store;
  private final Analyzer analyzer;
  private final ConfigService configs;
  private final ClientLog log;
  private final CompletionService completion;
  private final HoverService hover = new HoverService();
  private final InlayHintsService inlayHints = new InlayHintsService();
  private final ExecutorService typing = worker("hooklens-completion");
  private final ExecutorService reading = worker("hooklens-hover");
  private volatile CompletionService.ClientSupport client = new CompletionService.ClientSupport(false, false);

  HookAssist(DocumentStore store, Analyzer analyzer, ConfigService configs, ClientLog log) {
    this.store = store;
    this.analyzer = analyzer;
    this.configs = configs;
    this.log = log;
    this.completion = new CompletionService(analyzer);
  }

  /** One daemon thread that ends when idle, so a server that is gone leaves nothing running. */
  private static ExecutorService worker(String name) {
    ThreadPoolExecutor e = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    });
    e.allowCoreThreadTimeOut(true);
    return e;
  }

  /** Declares completion and hover, and inlay hints if the client shows them. */
  void advertise(ServerCapabilities caps, ClientCapabilities clientCaps) {
    client = CompletionService.ClientSupport.of(clientCaps);
    CompletionOptions options = new CompletionOptions(false, TRIGGERS);
    caps.setCompletionProvider(options);
    caps.setHoverProvider(true);
    if (clientCaps != null && clientCaps.getTextDocument() != null
        && clientCaps.getTextDocument().getInlayHint() != null) {
      caps.setInlayHintProvider(true);
    }
  }

  CompletableFuture<Either<List<CompletionItem>, CompletionList>> completion(CompletionParams params) {
    String uri = params.getTextDocument().getUri();
    return run(typing, "completion", uri, doc -> {
      List<CompletionItem> items = completion.complete(doc, params.getPosition(), configs.configFor(uri).targets(),
          client);
      return Either.forLeft(items);
    }, () -> Either.forLeft(List.of()));
  }

  CompletableFuture<Hover> hover(HoverParams params) {
    String uri = params.getTextDocument().getUri();
    return run(reading, "hover", uri, doc -> hover.hover(analyzer.parse(doc), params.getPosition()), () -> null);
  }

  CompletableFuture<List<InlayHint>> inlayHints(InlayHintParams params) {
    String uri = params.getTextDocument().getUri();
    return run(reading, "inlay hints", uri, doc -> inlayHints.hints(analyzer.parse(doc), params.getRange()),
        List::of);
  }

  private <T> CompletableFuture<T> run(ExecutorService executor, String what, String uri,
      Function<TextDocument, T> answer, Supplier<T> none) {
    return CompletableFutures.computeAsync(executor, cancel -> {
      TextDocument doc = store.get(uri);
      if (doc == null) {
        return none.get();
      }
      try {
        return answer.apply(doc);
      } catch (RuntimeException | StackOverflowError e) {
        log.error(what + " failed on " + uri + " (version " + doc.version() + ")", e);
        return none.get();
      }
    });
  }
}
