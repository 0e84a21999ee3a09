package io.hooklens.rules.lifecycle;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.engine.Version;
import io.hooklens.core.model.Container;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YScalar;
import java.util.HashSet;
import java.util.Set;

@RuleInfo(
    id = "HL120",
    name = "lifecycle-stop-signal",
    summary = "lifecycle.stopSignal is invalid for the pod's OS or not available on the target",
    severity = Severity.ERROR,
    remediation = "Set spec.os.name and a signal that OS supports (only SIGTERM or SIGKILL on Windows), and"
        + " enable the ContainerStopSignals feature gate on the API server and kubelets, or use the image's"
        + " STOPSIGNAL instead.",
    messages = {
        @Message(id = "noOs", text = "Container \"{0}\" sets stopSignal but the pod has no spec.os.name; the API"
            + " requires it (linux or windows) for stopSignal."),
        @Message(id = "windows", text = "Signal {0} is not supported on windows; only SIGTERM and SIGKILL are."),
        @Message(id = "linux", text = "Signal {0} is not a Linux stop signal the API accepts (e.g. SIGTERM,"
            + " SIGQUIT, SIGUSR1, SIGRTMIN+1)."),
        @Message(id = "alpha", text = "stopSignal needs the ContainerStopSignals feature gate, alpha and off by"
            + " default since 1.33 (still alpha in 1.35, the newest release checked): on Kubernetes {0} the API"
            + " server drops the field unless the gate is on, and the kubelets need it too."),
        @Message(id = "tooOld", text = "stopSignal does not exist before Kubernetes 1.33 (target {0}); the field is"
            + " dropped and the container stops with the image's STOPSIGNAL or SIGTERM.")
    })
public final class LifecycleStopSignal implements Rule {
  private static final Set<String> WINDOWS = Set.of("SIGTERM", "SIGKILL");
  private static final Set<String> LINUX = linuxSignals();

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    Version target = ctx.targets().kubernetes();
    for (Container c : doc.containers()) {
      YMap lifecycle = c.mayHaveLifecycle() ? c.lifecycle() : null;
      YMap.Entry entry = lifecycle == null ? null : lifecycle.entry("stopSignal");
      if (entry == null || !(entry.value() instanceof YScalar value) || value.type() == YScalar.Type.NULL) {
        continue;
      }
      if (target.isBefore(1, 33)) {
        ctx.report(entry.key(), "tooOld", target).severity(Severity.WARNING);
        continue;
      }
      ctx.report(entry.key(), "alpha", target).severity(Severity.WARNING);
      YMap os = c.pod().node().map("os");
      YScalar osName = os == null ? null : os.scalar("name");
      if (osName != null && osName.isTemplated()) {
        continue;
      }
      String osValue = c.pod().osName();
      if (osValue == null || osValue.isEmpty()) {
        ctx.report(entry.key(), "noOs", c.displayName());
      } else if (!value.isTemplated() && value.type() == YScalar.Type.STRING) {
        // A number or boolean is HL126's type error; the API decodes no signal from it.
        String signal = value.value();
        if (osValue.equals("windows") && !WINDOWS.contains(signal)) {
          ctx.report(value, "windows", signal);
        } else if (osValue.equals("linux") && !LINUX.contains(signal)) {
          ctx.report(value, "linux", signal);
        }
      }
    }
  }

  /** The signals the API accepts for Linux pods, spelled as the API spells them. */
  private static Set<String> linuxSignals() {
    Set<String> s = new HashSet<>(Set.of("SIGABRT", "SIGALRM", "SIGBUS", "SIGCHLD", "SIGCLD", "SIGCONT", "SIGFPE",
        "SIGHUP", "SIGILL", "SIGINT", "SIGIO", "SIGIOT", "SIGKILL", "SIGPIPE", "SIGPOLL", "SIGPROF", "SIGPWR",
        "SIGQUIT", "SIGSEGV", "SIGSTKFLT", "SIGSTOP", "SIGSYS", "SIGTERM", "SIGTRAP", "SIGTSTP", "SIGTTIN",
        "SIGTTOU", "SIGURG", "SIGUSR1", "SIGUSR2", "SIGVTALRM", "SIGWINCH", "SIGXCPU", "SIGXFSZ", "SIGRTMIN",
        "SIGRTMAX"));
    for (int i = 1; i <= 15; i++) {
      s.add("SIGRTMIN+" + i);
    }
    for (int i = 1; i <= 14; i++) {
      s.add("SIGRTMAX-" + i);
    }
    return Set.copyOf(s);
  }
}
