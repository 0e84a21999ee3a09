package io.hooklens.rules.lifecycle;

import io.hooklens.core.model.Container;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.PodSpec;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.openshift.DcHook;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.core.yaml.YSeq;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The fields outside {@code lifecycle} that hooks depend on and whose Go type the API decodes them into: an
 * int64 or int32 (a grace period, a deadline, probe timing) or a bool ({@code stdin}, {@code tty},
 * {@code readOnly}). A value of another type is refused by the API server, and the rules that read it cannot
 * use it, so each field says which checks are then not made.
 */
final class TypedFields {
  /** A JSON type the API decodes a field as. */
  enum Expected { INTEGER, BOOLEAN }

  /**
   * A field written with a value of the wrong type.
   *
   * @param unchecked what could not be checked because of it, or an empty string
   */
  record Mistyped(YNode value, Resource owner, Expected expected, String unchecked) {}

  private static final String GRACE = "the hooks were not checked against the grace period";
  private static final String RUN_TIME = "the hook's run time was not checked against it";
  private static final String PROBE_GRACE = "the probe's grace period was not checked against the preStop hook";
  private static final String DC_TIMING = "its range and the hooks' time against it were not checked";
  private static final List<String> PROBES = List.of("livenessProbe", "readinessProbe", "startupProbe");
  private static final List<String> PROBE_TIMING =
      List.of("initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold");
  private static final List<String> CONTAINER_FLAGS = List.of("stdin", "stdinOnce", "tty");
  /** Kinds whose spec has {@code replicas} and {@code minReadySeconds}, which rollouts of their hooks depend on. */
  private static final Set<String> WORKLOADS = Set.of("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet",
      "DeploymentConfig");

  private TypedFields() {}

  static List<Mistyped> in(HookDocument doc) {
    List<Mistyped> out = new ArrayList<>();
    for (PodSpec pod : doc.podSpecs()) {
      check(out, pod.node(), "terminationGracePeriodSeconds", pod.owner(), Expected.INTEGER, GRACE);
      check(out, pod.node(), "activeDeadlineSeconds", pod.owner(), Expected.INTEGER, RUN_TIME);
    }
    for (Container c : doc.containers()) {
      Resource owner = c.pod().owner();
      for (String flag : CONTAINER_FLAGS) {
        check(out, c.node(), flag, owner, Expected.BOOLEAN, "");
      }
      for (String probe : PROBES) {
        YMap p = c.node().map(probe);
        if (p != null) {
          for (String field : PROBE_TIMING) {
            check(out, p, field, owner, Expected.INTEGER, "");
          }
          check(out, p, "terminationGracePeriodSeconds", owner, Expected.INTEGER, PROBE_GRACE);
        }
      }
      YSeq mounts = c.node().seq("volumeMounts");
      if (mounts != null) {
        for (YNode m : mounts.items()) {
          if (m instanceof YMap mount) {
            check(out, mount, "readOnly", owner, Expected.BOOLEAN, "");
          }
        }
      }
    }
    for (Resource r : doc.resources()) {
      YMap spec = r.root().map("spec");
      if ("Job".equals(r.kind()) && spec != null) {
        check(out, spec, "activeDeadlineSeconds", r, Expected.INTEGER, RUN_TIME);
        check(out, spec, "backoffLimit", r, Expected.INTEGER, "");
      }
      if (spec != null && r.kind() != null && WORKLOADS.contains(r.kind())) {
        check(out, spec, "replicas", r, Expected.INTEGER, "");
        check(out, spec, "minReadySeconds", r, Expected.INTEGER,
            DcHook.isDeploymentConfig(r) ? "it was not checked against the rollout timeout" : "");
      }
      YMap strategy = DcHook.isDeploymentConfig(r) ? DcHook.strategy(r) : null;
      if (strategy != null) {
        check(out, strategy, "activeDeadlineSeconds", r, Expected.INTEGER, DC_TIMING);
        for (String params : List.of("recreateParams", "rollingParams")) {
          YMap block = strategy.map(params);
          if (block != null) {
            for (String field : List.of("timeoutSeconds", "updatePeriodSeconds", "intervalSeconds")) {
              check(out, block, field, r, Expected.INTEGER, DC_TIMING);
            }
          }
        }
      }
    }
    return out;
  }

  private static void check(List<Mistyped> out, YMap holder, String field, Resource owner, Expected expected,
      String unchecked) {
    YNode v = holder.get(field);
    if (v != null && !fits(v, expected)) {
      out.add(new Mistyped(v, owner, expected, unchecked));
    }
  }

  /** Whether the API decodes the value into the field: null is absent, and a template value is unknown. */
  static boolean fits(YNode v, Expected expected) {
    if (!(v instanceof YScalar s)) {
      return false;
    }
    if (s.type() == YScalar.Type.NULL || s.isTemplated()) {
      return true;
    }
    return switch (expected) {
      // kubectl sends an integral float as an integer (30.0 as 30), and the API takes it.
      case INTEGER -> s.asLong().isPresent();
      case BOOLEAN -> s.type() == YScalar.Type.BOOL;
    };
  }
}
