package io.hooklens.chart;

import com.marcnuri.helm.DependencyCommand;
import com.marcnuri.helm.TemplateCommand;
import com.marcnuri.helm.VersionCommand;
import com.marcnuri.helm.jni.HelmLib;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Real Helm in this process, through helm-java: what the render worker runs. Nothing bounds it here, so only
 * {@link RenderWorker} calls it, in a process its parent can stop.
 */
final class HelmCall {
  private static final Object LOCK = new Object();
  private static SignalHandlers handlers;
  private static HelmLib lib;

  static {
    // helm-java downloads the native library of a platform whose library is not on the class path;
    // Hooklens never reaches the network.
    System.setProperty("com.marcnuri.jkube-helm.skipRemoteJar", "true");
  }

  private HelmCall() {}

  private interface Call<T> {
    T call() throws IOException;
  }

  /** Loads Helm's native library, which takes most of a first render's time. */
  static void load() throws IOException {
    around(() -> new VersionCommand(lib()).call());
  }

  /** Helm's library, loaded on first use; only under {@link #LOCK}, as every call into it. */
  private static HelmLib lib() throws IOException {
    if (lib == null) {
      lib = HelmLibrary.load();
    }
    return lib;
  }

  /**
   * Renders the copy with its values.yaml, the given values files on top in order (as helm's {@code -f}) and
   * the values set as with {@code --set}, {@code --set-string} and {@code --set-file}, for the given Kubernetes
   * version ({@code .Capabilities.KubeVersion}, kubeVersion checks).
   */
  static ChartRenderer.Rendering render(RenderProtocol.Request r) throws IOException {
    TemplateCommand command = around(() -> new TemplateCommand(lib(), Path.of(r.chart())))
        .withName(r.release())
        .withNamespace(r.namespace())
        .withKubeVersion(r.kubeVersion());
    r.valuesFiles().forEach(f -> command.withValuesFile(Path.of(f)));
    if (!r.set().isEmpty()) {
      command.set(r.set() + ",", "");
    }
    if (!r.setFiles().isEmpty()) {
      command.setFile(r.setFiles() + ",", Path.of(r.emptyFile()));
    }
    try {
      HelmLog.Logged<String> run = around(() -> HelmLog.around(command::call));
      // helm-java gives null, not empty text, for a chart that renders to nothing.
      String manifests = run.result() == null ? "" : HelmText.restoreHooks(run.result());
      return new ChartRenderer.Rendered(manifests, HelmLog.skippedHooks(run.messages()));
    } catch (IllegalStateException e) {
      return new ChartRenderer.Failed(e.getMessage() == null ? "" : e.getMessage());
    }
  }

  /** {@code helm dependency build} in a chart folder: {@link ChartRenderer.Failed} with Helm's message when it fails. */
  static ChartRenderer.Rendering buildDependencies(RenderProtocol.Request r) throws IOException {
    try {
      around(() -> {
        DependencyCommand dependencies = new DependencyCommand(lib(), Path.of(r.chart()));
        return HelmLog.around(() -> dependencies.build().call());
      });
      return new ChartRenderer.Rendered("", List.of());
    } catch (IllegalStateException e) {
      return new ChartRenderer.Failed(e.getMessage() == null ? "" : e.getMessage());
    }
  }

  /** A call into Helm, one at a time, with the JVM's signal handlers back afterwards. */
  private static <T> T around(Call<T> call) throws IOException {
    synchronized (LOCK) {
      if (handlers == null) {
        handlers = SignalHandlers.save();
      }
      try {
        return call.call();
      } finally {
        handlers.restore();
      }
    }
  }
}
