package io.hooklens.lsp;

import io.hooklens.core.engine.RuleRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.InvocationTargetException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntConsumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.eclipse.lsp4j.jsonrpc.MessageConsumer;
import org.eclipse.lsp4j.jsonrpc.RemoteEndpoint;
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException;
import org.eclipse.lsp4j.jsonrpc.json.ConcurrentMessageProcessor;
import org.eclipse.lsp4j.jsonrpc.json.MessageJsonHandler;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseError;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;
import org.eclipse.lsp4j.launch.LSPLauncher;
import org.eclipse.lsp4j.services.LanguageClient;

/** Serves one client over a pair of streams (stdio) or a loopback socket, until it exits or hangs up. */
public final class LanguageServerRunner {
  private static final Logger LOG = Logger.getLogger("io.hooklens.lsp");

  private LanguageServerRunner() {}

  /**
   * Serves a client over standard input and output, or any pair of streams. Returns the exit code:
   * 0 after {@code shutdown} and {@code exit}, 1 when the client exits or hangs up without a shutdown.
   */
  public static int serve(RuleRegistry registry, String version, InputStream in, OutputStream out) {
    return serve(new HooklensLanguageServer(registry, version), in, out);
  }

  /**
   * Listens on the loopback interface and serves the first client that connects, then stops listening.
   *
   * @param port the port, or 0 for any free one
   * @param listening told the port once the socket listens, before a client connects
   */
  public static int serveSocket(RuleRegistry registry, String version, int port, IntConsumer listening)
      throws IOException {
    Socket socket;
    try (ServerSocket server = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      listening.accept(server.getLocalPort());
      socket = server.accept();
    }
    try (Socket s = socket) {
      LOG.info("client connected from " + s.getRemoteSocketAddress());
      return serve(registry, version, s.getInputStream(), s.getOutputStream());
    }
  }

  /** Serves a client with a given server; closes {@code out} when done. */
  static int serve(HooklensLanguageServer server, InputStream in, OutputStream out) {
    ExecutorService protocol = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "hooklens-protocol");
      t.setDaemon(true);
      return t;
    });
    try {
      Launcher<LanguageClient> launcher = new Builder(server.log())
          .setLocalService(server)
          .setRemoteInterface(LanguageClient.class)
          .setInput(in)
          .setOutput(out)
          .setExecutorService(protocol)
          .create();
      server.connect(launcher.getRemoteProxy());
      Future<Void> listening = launcher.startListening();
      CompletableFuture<Void> hungUp = CompletableFuture.runAsync(() -> await(listening), protocol);
      CompletableFuture.anyOf(server.exited(), hungUp).join();
      listening.cancel(true);
      return server.exited().getNow(server.shutdownRequested() ? 0 : 1);
    } finally {
      server.dispose();
      protocol.shutdownNow();
      closeQuietly(out);
    }
  }

  /**
   * lsp4j's launcher with the server's own reader ({@link MessageReader}), params checks ({@link RequestChecks}),
   * and errors that keep Java's exceptions to the server log.
   */
  private static final class Builder extends LSPLauncher.Builder<LanguageClient> {
    private final ClientLog log;

    Builder(ClientLog log) {
      this.log = log;
      setExceptionHandler(LanguageServerRunner::internalError);
    }

    @Override
    public Launcher<LanguageClient> create() {
      MessageJsonHandler jsonHandler = createJsonHandler();
      RemoteEndpoint remoteEndpoint = createRemoteEndpoint(jsonHandler);
      LanguageClient remoteProxy = createProxy(remoteEndpoint);
      MessageConsumer checked = new RequestChecks(wrapMessageConsumer(remoteEndpoint), jsonHandler, remoteEndpoint,
          log::warn);
      MessageReader reader = new MessageReader(input, jsonHandler, remoteEndpoint);
      ConcurrentMessageProcessor processor = createMessageProcessor(reader, checked, remoteProxy);
      return createLauncher(executorService, remoteProxy, remoteEndpoint, processor);
    }
  }

  /**
   * The answer to a request whose handler failed: lsp4j's default puts the Java stack trace in the error's data;
   * the client gets a plain message, and the server log the exception.
   */
  static ResponseError internalError(Throwable t) {
    for (Throwable x = t; x != null; x = x.getCause()) {
      if (x instanceof ResponseErrorException e) {
        return e.getResponseError();
      }
      if (!(x instanceof CompletionException || x instanceof ExecutionException
          || x instanceof InvocationTargetException)) {
        break;
      }
    }
    LOG.log(Level.SEVERE, "a request failed", t);
    return new ResponseError(ResponseErrorCode.InternalError,
        "Internal error in the Hooklens language server; its log has the details", null);
  }

  /** The client reads the end of the stream rather than waiting on a server that is gone. */
  private static void closeQuietly(OutputStream out) {
    try {
      out.close();
    } catch (IOException e) {
      LOG.fine("closing the output: " + e);
    }
  }

  private static void await(Future<Void> listening) {
    try {
      listening.get();
    } catch (ExecutionException | java.util.concurrent.CancellationException e) {
      LOG.fine("connection closed: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
