package io.hooklens.run.node;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.HTTPHeader;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LifecycleHandler;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs one lifecycle handler the way the kubelet's handler runner does: exec inside the container (no
 * timeout), httpGet from outside the container into the pod's network (any HTTP answer is a success; only
 * a failed request fails), sleep in the node itself, and anything else (tcpSocket) refused as an invalid
 * handler.
 */
final class HookRunner {
  /** The result of a handler: failed or not, the kubelet-style message, and what the handler printed. */
  record Result(boolean failed, String message, String output) {
    static Result ok(String output) {
      return new Result(false, "", output);
    }

    static Result failure(String message, String output) {
      return new Result(true, message, output);
    }
  }

  static final int MAX_OUTPUT = 10 * 1024;
  private static final String USER_AGENT = "kube-lifecycle/1.34";

  private final Sandbox sandbox;

  HookRunner(Sandbox sandbox) {
    this.sandbox = sandbox;
  }

  /**
   * Runs the handler; returns when it ends, or when {@code stopped} opens (the container is gone), with
   * the handler's process killed.
   */
  Result run(LifecycleHandler handler, Container container, Sandbox.PodNetwork network,
      Sandbox.ContainerProcess process, Map<String, String> env, CountDownLatch stopped) {
    try {
      if (handler.getExec() != null) {
        List<String> command = handler.getExec().getCommand();
        if (command == null || command.isEmpty()) {
          return Result.failure("exec handler has no command", "");
        }
        return exec(command, sandbox.startExec(process, command, env), stopped);
      }
      if (handler.getHttpGet() != null) {
        return httpGet(handler.getHttpGet(), container, network, stopped);
      }
      if (handler.getSleep() != null) {
        long seconds = handler.getSleep().getSeconds() == null ? 0 : handler.getSleep().getSeconds();
        return stopped.await(seconds, TimeUnit.SECONDS)
            ? Result.failure("container terminated before sleep hook finished", "")
            : Result.ok("");
      }
      return Result.failure("Cannot run handler: invalid handler: " + describe(handler), "");
    } catch (IOException e) {
      return Result.failure("cannot start handler: " + e.getMessage(), "");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Result.failure("interrupted", "");
    }
  }

  private static String describe(LifecycleHandler handler) {
    return handler.getTcpSocket() != null ? "tcpSocket (port " + handler.getTcpSocket().getPort().getValue() + ")"
        : "no action";
  }

  private Result exec(List<String> command, Process process, CountDownLatch stopped) throws InterruptedException {
    Output output = Output.drain(process.getInputStream());
    while (!process.waitFor(20, TimeUnit.MILLISECONDS)) {
      if (stopped.getCount() == 0) {
        Sandbox.killGroup(process.pid());
        process.destroyForcibly().waitFor();
      }
    }
    String printed = output.text();
    int code = process.exitValue();
    return code == 0 ? Result.ok(printed)
        : Result.failure("command '" + String.join(" ", command) + "' exited with " + code + ": " + printed, printed);
  }

  private Result httpGet(HTTPGetAction action, Container container, Sandbox.PodNetwork network,
      CountDownLatch stopped) throws IOException, InterruptedException {
    Integer port = port(action.getPort(), container);
    if (port == null) {
      return Result.failure("httpGet port " + action.getPort().getStrVal() + " is not a named port of container "
          + container.getName(), "");
    }
    String host = action.getHost();
    if (host != null && !host.isEmpty()) {
      // The kubelet sends to httpGet.host from the node; the embedded node sends nothing outside the pod.
      return Result.failure("httpGet host " + host + " is reached from the node, not the pod; the embedded node "
          + "sends lifecycle requests only to the pod itself", "");
    }
    String target = "127.0.0.1";
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
    while (!process.waitFor(20, TimeUnit.MILLISECONDS)) {
      if (stopped.getCount() == 0) {
        process.destroyForcibly().waitFor();
      }
    }
    String printed = output.text().strip();
    return process.exitValue() == 0 ? Result.ok(printed)
        : Result.failure("HTTP lifecycle hook (" + path + ") for Container \"" + container.getName()
            + "\" failed - error: Get \"http://" + target + ":" + port + path + "\": " + printed, printed);
  }

  // Named ports are looked up in the same container's ports, as the kubelet does.
  private static Integer port(IntOrString port, Container container) {
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

  /** Reads a stream on a daemon thread, keeping the last {@link #MAX_OUTPUT} bytes. */
  static final class Output {
    private final StringBuilder text = new StringBuilder();
    private final Thread reader;

    private Output(InputStream in) {
      reader = new Thread(() -> {
        byte[] buffer = new byte[4096];
        try (in) {
          for (int n; (n = in.read(buffer)) >= 0; ) {
            synchronized (text) {
              text.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
              if (text.length() > MAX_OUTPUT) {
                text.delete(0, text.length() - MAX_OUTPUT);
              }
            }
          }
        } catch (IOException e) {
          // The process is gone; what was read is kept.
        }
      }, "hooklens-output");
      reader.setDaemon(true);
      reader.start();
    }

    static Output drain(InputStream in) {
      return new Output(in);
    }

    /** The text read so far, after waiting briefly for the stream's end. */
    String text() {
      try {
        reader.join(500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      synchronized (text) {
        return text.toString();
      }
    }
  }
}
