package io.hooklens.rules.helm;

import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.PodSpec;
import io.hooklens.core.model.Resource;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * A resource Helm registers as a hook: a top-level document whose {@code helm.sh/hook} lists only
 * events Helm knows. Helm skips a document with an unknown or empty event altogether (HL201 to HL205
 * report that), so the rules about how hooks behave look only at these.
 *
 * @param events the events as Helm stores them: normalised, with {@code test-success} read as {@code test}
 */
record HelmHook(Resource resource, YScalar hookValue, List<String> events) {
  static final String TEST = "test";

  /** Every hook of a document, in file order. */
  static List<HelmHook> in(HookDocument doc) {
    List<HelmHook> out = new ArrayList<>();
    for (Resource r : doc.resources()) {
      HelmHook h = of(r);
      if (h != null) {
        out.add(h);
      }
    }
    return out;
  }

  /** The hook a resource is, or null when Helm does not treat it as one (or its events are unknown). */
  static HelmHook of(Resource r) {
    // Helm reads the annotations of each document's top-level object only, never of List items.
    if (r.parent() != null || !HelmAnnotations.isHook(r)) {
      return null;
    }
    YScalar value = HelmAnnotations.annotation(r, HelmAnnotations.HOOK);
    if (value.type() == YScalar.Type.NULL) {
      return null;
    }
    List<String> events = new ArrayList<>();
    for (HelmAnnotations.Item item : HelmAnnotations.items(value)) {
      if (!HelmAnnotations.EVENTS.contains(item.normalized())) {
        return null;
      }
      events.add(item.normalized().equals("test-success") ? TEST : item.normalized());
    }
    return new HelmHook(r, value, List.copyOf(events));
  }

  String kind() {
    return resource.kind() == null ? "" : resource.kind();
  }

  /** {@code metadata.name}, or the empty string Helm sees when it is missing. */
  String name() {
    return resource.name() == null ? "" : resource.name();
  }

  /** Helm's weight, or empty when the annotation is a template expression. */
  OptionalLong weight() {
    YScalar w = HelmAnnotations.annotation(resource, HelmAnnotations.WEIGHT);
    if (w != null && w.isTemplated()) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(HelmAnnotations.weight(resource));
  }

  /** Whether Helm's place for this hook is known: its kind, name and weight are not template expressions. */
  boolean placeKnown() {
    return weight().isPresent() && !templated(resource.root().scalar("kind"))
        && !templated(resource.metadata().scalar("name"));
  }

  private static boolean templated(YScalar s) {
    return s != null && s.isTemplated();
  }

  /** The written {@code helm.sh/hook-delete-policy} value, or null. */
  YScalar deletePolicyValue() {
    return HelmAnnotations.annotation(resource, HelmAnnotations.DELETE_POLICY);
  }

  /**
   * The delete policies Helm applies: the known ones written, or {@code before-hook-creation} when
   * nothing is written. Unknown items apply nothing but still turn the default off. Null when the value
   * is a template expression.
   */
  List<String> deletePolicies() {
    YMap.Entry e = HelmAnnotations.entry(resource, HelmAnnotations.DELETE_POLICY);
    if (e == null) {
      return List.of("before-hook-creation");
    }
    if (!(e.value() instanceof YScalar v)) {
      return List.of();
    }
    if (v.isTemplated()) {
      return null;
    }
    List<String> out = new ArrayList<>();
    for (HelmAnnotations.Item item : HelmAnnotations.items(v)) {
      if (HelmAnnotations.DELETE_POLICIES.contains(item.normalized()) && !out.contains(item.normalized())) {
        out.add(item.normalized());
      }
    }
    return out;
  }

  /** Whether Helm waits for this hook to finish: only Jobs and Pods are awaited. */
  boolean isAwaited() {
    return kind().equals("Job") || kind().equals("Pod");
  }

  /** The pod spec of this hook (a Pod's spec, a Job's or CronJob's template spec), or null. */
  PodSpec podSpec(HookDocument doc) {
    for (PodSpec p : doc.podSpecs()) {
      if (p.owner() == resource) {
        return p;
      }
    }
    return null;
  }

  /**
   * Where to report a pod-spec field that is missing: the {@code spec:} key holding the pod spec, or the
   * pod spec itself when it has no key (a flow mapping reached through an alias).
   */
  static YNode specKey(PodSpec pod) {
    if (pod.node().parent() instanceof YMap parent && pod.node().keyInParent() instanceof String k) {
      YMap.Entry e = parent.entry(k);
      if (e != null && e.value() == pod.node()) {
        return e.key();
      }
    }
    return pod.node();
  }
}
