package io.hooklens.run.node;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.HTTPHeader;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LifecycleHandler;
import io.hooklens.run.kube.BoundedOutput;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one lifecycle handler the way the kubelet's handlerRunner does: exec inside the container (no
 * timeout), httpGet from outside the container into the pod's network (any HTTP answer is a success; only
 * a failed request fails), sleep in the node itself, and anything else (tcpSocket) refused as an invalid
 * handler.
 */
final class HandlerRunner {
  /** The result of a handler: failed or not, the kubelet-style message, and what the handler printed. */
  record Result(boolean failed, String message, BoundedOutput.Tail output) {
    static Result ok(BoundedOutput.Tail output) {
      return new Result(false, "", output);
    }

    static Result failure(String message, BoundedOutput.Tail output) {
      return new Result(true, message, output);
    }

    static Result failure(String message) {
      return failure(message, BoundedOutput.Tail.EMPTY);
    }
  }

  /** How much of a failed handler's output its message quotes: the output is reported beside it. */
  private static final int OUTPUT_IN_MESSAGE = 256;
  private static final String USER_AGENT = "kube-lifecycle/1.34";

  private final Sandbox sandbox;

  HandlerRunner(Sandbox sandbox) {
    this.sandbox = sandbox;
  }

  /**
   * Runs the handler; returns when it ends, or when {@code stopped} completes (the container is gone), with
   * the handler's process killed.
   */
  Result run(LifecycleHandler handler, Container container, Sandbox.PodNetwork network,
      Sandbox.ContainerProcess process, Map<String, String> env, CompletableFuture<?> stopped) {
    try {
      if (handler.getExec() != null) {
        List<String> command = handler.getExec().getCommand();
        if (command == null || command.isEmpty()) {
          return Result.failure("exec handler has no command");
        }
        return exec(command, sandbox.startExec(process, command, env), stopped);
      }
      if (handler.getHttpGet() != null) {
        return httpGet(handler.getHttpGet(), container, network, stopped);
      }
      if (handler.getSleep() != null) {
        long seconds = handler.getSleep().getSeconds() == null ? 0 : handler.getSleep().getSeconds();
        return endsWithin(stopped, seconds) ? Result.failure("container terminated before sleep hook finished")
            : Result.ok(BoundedOutput.Tail.EMPTY);
      }
      return Result.failure("Cannot run handler: invalid handler: " + describe(handler));
    } catch (IOException e) {
      return Result.failure("cannot start handler: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Result.failure("interrupted");
    }
  }

  private static String describe(LifecycleHandler handler) {
    return handler.getTcpSocket() != null ? "tcpSocket (port " + handler.getTcpSocket().getPort().getValue() + ")"
        : "no action";
  }

  private static boolean endsWithin(CompletableFuture<?> stopped, long seconds) throws InterruptedException {
    try {
      stopped.get(seconds, TimeUnit.SECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    } catch (ExecutionException e) {
      return true;
    }
  }

  /** Waits for the handler's process, which is killed once the container is gone. */
  static void await(Process process, CompletableFuture<?> stopped, boolean group)
      throws InterruptedException {
    try {
      CompletableFuture.anyOf(process.onExit(), stopped).get();
    } catch (ExecutionException e) {
      // The container is gone all the same.
    }
    if (process.isAlive()) {
      if (group) {
        Sandbox.killGroup(process.pid());
      }
      process.destroyForcibly();
    }
    process.waitFor();
  }

  private Result exec(List<String> command, Process process, CompletableFuture<?> stopped)
      throws InterruptedException {
    Output output = Output.drain(process.getInputStream());
    await(process, stopped, true);
    BoundedOutput.Tail printed = output.tail();
    int code = process.exitValue();
    return code == 0 ? Result.ok(printed)
        : Result.failure("command '" + String.join(" ", command) + "' exited with " + code + ": "
            + quoted(printed.text()), printed);
  }

  private Result httpGet(HTTPGetAction action, Container container, Sandbox.PodNetwork network,
      CompletableFuture<?> stopped) throws IOException, InterruptedException {
    Integer port = port(action.getPort(), container);
    if (port == null) {
      return Result.failure("httpGet port " + action.getPort().getStrVal() + " is not a named port of container "
          + container.getName());
    }
    String host = action.getHost();
    if (host != null && !host.isEmpty()) {
      return Result.failure(fromNode("httpGet", host));
    }
    // As the kubelet, to the pod's IP: a server bound to 127.0.0.1 only is not reached.
    String target = network.ip();
    String path = action.getPath() == null || action.getPath().isEmpty() ? "/" : action.getPath();
    StringBuilder request = new StringBuilder("GET ").append(path).append(" HTTP/1.1\r\n");
    boolean hostHeader = false;
    StringBuilder headers = new StringBuilder();
    for (HTTPHeader header : action.getHttpHeaders() == null ? List.<HTTPHeader>of() : action.getHttpHeaders()) {
      hostHeader |= "host".equalsIgnoreCase(header.getName());
      headers.append(header.getName()).append(": ").append(header.getValue()).append("\r\n");
    }
    if (!hostHeader) {
      request.append("Host: ").append(target).append(':').append(port).append("\r\n");
    }
    request.append("User-Agent: ").append(USER_AGENT).append("\r\nAccept: */*\r\nConnection: close\r\n")
        .append(headers).append("\r\n");
    Process process = sandbox.startHttpGet(network, target, port, request.toString());
    Output output = Output.drain(process.getInputStream());
    await(process, stopped, false);
    BoundedOutput.Tail read = output.tail();
    BoundedOutput.Tail printed = new BoundedOutput.Tail(read.text().strip(), read.droppedBytes());
    return process.exitValue() == 0 ? Result.ok(printed)
        : Result.failure("HTTP lifecycle hook (" + path + ") for Container \"" + container.getName()
            + "\" failed - error: Get \"http://" + target + ":" + port + path + "\": " + quoted(printed.text()),
            printed);
  }

  /** Why a request to {@code host} is refused: the kubelet sends it from the node, the embedded node into the pod. */
  static String fromNode(String action, String host) {
    return action + " host " + host + " is reached from the node, not the pod; the embedded node sends requests "
        + "and probes only to the pod itself";
  }

  // Named ports are looked up in the same container's ports, as the kubelet does (probe.ResolveContainerPort).
  static Integer port(IntOrString port, Container container) {
    if (port == null) {
      return null;
    }
    if (port.getIntVal() != null) {
      return port.getIntVal();
    }
    for (ContainerPort p : container.getPorts() == null ? List.<ContainerPort>of() : container.getPorts()) {
      if (port.getStrVal().equals(p.getName())) {
        return p.getContainerPort();
      }
    }
    try {
      return Integer.parseInt(port.getStrVal());
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** The end of what a failed handler printed, for its message. */
  private static String quoted(String printed) {
    if (printed.length() <= OUTPUT_IN_MESSAGE) {
      return printed;
    }
    int from = printed.length() - OUTPUT_IN_MESSAGE;
    return "…" + printed.substring(Character.isLowSurrogate(printed.charAt(from)) ? from + 1 : from);
  }

  /** Reads a stream on a daemon thread into a {@link BoundedOutput}. */
  static final class Output {
    // Long enough for the pipe's last bytes once the process is gone.
    static final long END_MILLIS = 500;
    private final BoundedOutput kept;
    private final CompletableFuture<Void> finished = new CompletableFuture<>();

    private Output(InputStream in, BoundedOutput kept) {
      this.kept = kept;
      Thread reader = new Thread(() -> {
        try (in) {
          kept.readAll(in);
        } catch (IOException e) {
          // The process is gone; what was read is kept.
        } finally {
          finished.complete(null);
        }
      }, "hooklens-output");
      reader.setDaemon(true);
      reader.start();
    }

    static Output drain(InputStream in) {
      return drain(in, new BoundedOutput());
    }

    /** Reads into {@code kept}, which may hold what earlier runs of the same container printed. */
    static Output drain(InputStream in, BoundedOutput kept) {
      return new Output(in, kept);
    }

    /** Completes when the stream has been read to its end. */
    CompletableFuture<Void> finished() {
      return finished;
    }

    /** What was kept so far, after waiting briefly for the stream's end. */
    BoundedOutput.Tail tail() {
      try {
        finished.get(END_MILLIS, TimeUnit.MILLISECONDS);
      } catch (TimeoutException | ExecutionException e) {
        // Still printing: what was read so far.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return kept.tail();
    }
  }
}
