package io.hooklens.chart;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import io.hooklens.core.engine.Version;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Renders a chart copy with real Helm, in-process, through helm-java. */
final class ChartRenderer {
  /** What Helm made of one values set. */
  sealed interface Rendering permits Rendered, Failed {}

  /**
   * The manifests, each document under a {@code # Source:} header, hook annotations as written; and the
   * {@code helm.sh/hook} values of resources Helm left out for an event it does not know, which it only logs.
   */
  record Rendered(String manifests, List<String> skippedHooks) implements Rendering {}

  /** Helm's error message, with the copy's paths still in it. */
  record Failed(String message) implements Rendering {}

  static final String RELEASE = "release";
  static final String NAMESPACE = "default";

  private static final Pattern SKIPPED_HOOK = Pattern.compile("info: skipping unknown hook: \"(.*)\"");
  private static final Object LOCK = new Object();
  private static SignalHandlers handlers;

  static {
    // helm-java downloads the native library of a platform whose library is not on the class path;
    // Hooklens never reaches the network.
    System.setProperty("com.marcnuri.jkube-helm.skipRemoteJar", "true");
  }

  private ChartRenderer() {}

  /** Why Helm cannot run in this process, or empty when it can. */
  static Optional<String> unavailable() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    if (os.startsWith("linux") && (arch.equals("amd64") || arch.equals("x86_64"))) {
      return Optional.empty();
    }
    return Optional.of("Helm's native library is bundled for linux-amd64 only, not for " + os + "-" + arch);
  }

  /**
   * Renders the copy with its values.yaml, the given values files on top in order (as helm's
   * {@code -f}) and the values set as with {@code --set}, {@code --set-string} and {@code --set-file}, for
   * the given Kubernetes version ({@code .Capabilities.KubeVersion}, kubeVersion checks).
   */
  static Rendering render(ChartCopy copy, List<Path> valuesFiles, SetValues.ForHelm setValues,
      Version kubernetes) throws IOException {
    TemplateCommand command = new Helm(copy.root()).template()
        .withName(RELEASE)
        .withNamespace(NAMESPACE)
        .withKubeVersion("v" + kubernetes.major() + "." + kubernetes.minor() + ".0");
    valuesFiles.forEach(command::withValuesFile);
    if (!setValues.set().isEmpty()) {
      command.set(setValues.set() + ",", "");
    }
    if (!setValues.files().isEmpty()) {
      command.setFile(setValues.files() + ",", setValues.empty());
    }
    synchronized (LOCK) {
      if (handlers == null) {
        handlers = SignalHandlers.save();
      }
      try {
        HelmLog.Logged<String> run = HelmLog.around(command::call);
        // helm-java gives null, not empty text, for a chart that renders to nothing.
        String manifests = run.result() == null ? "" : HelmText.restoreHooks(run.result());
        return new Rendered(manifests, skippedHooks(run.messages()));
      } catch (IllegalStateException e) {
        return new Failed(e.getMessage() == null ? "" : e.getMessage());
      } finally {
        handlers.restore();
      }
    }
  }

  /**
   * The values of Helm's log lines about resources it skips for an unknown hook event. Its other lines are
   * about values and chart layout, not hooks, and are left out.
   */
  private static List<String> skippedHooks(List<String> messages) {
    List<String> values = new ArrayList<>();
    for (String m : messages) {
      Matcher skipped = SKIPPED_HOOK.matcher(m);
      if (skipped.matches()) {
        // Go quotes the value: a quote or backslash in it comes escaped.
        values.add(skipped.group(1).replace("\\\"", "\"").replace("\\\\", "\\"));
      }
    }
    return values;
  }
}
