package io.hooklens.core.model.helm;

import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.PodSpec;
import io.hooklens.core.model.Resource;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YScalar;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * A resource Helm registers as a hook: a top-level document whose {@code helm.sh/hook} lists only
 * events Helm knows. Helm skips a document with an unknown or empty event altogether (HL201 to HL205
 * report that), so the rules about how hooks behave look only at these.
 *
 * @param events the events as Helm stores them, in the order written (an event listed twice twice), with
 *     {@code test-success} read as {@link HelmEvent#TEST}
 */
public record HelmHook(Resource resource, YScalar hookValue, List<HelmEvent> events) {
  /** Every hook of a document, in file order. */
  public static List<HelmHook> in(HookDocument doc) {
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
  public static HelmHook of(Resource r) {
    // Helm reads the annotations of each document's top-level object only, never of List items.
    if (r.parent() != null || !HelmAnnotations.isHook(r)) {
      return null;
    }
    YScalar value = HelmAnnotations.annotation(r, HelmAnnotations.HOOK);
    if (value.type() == YScalar.Type.NULL) {
      return null;
    }
    List<HelmEvent> events = new ArrayList<>();
    for (HelmAnnotations.Item item : HelmAnnotations.items(value)) {
      HelmEvent event = HelmEvent.parse(item.normalized());
      if (event == null) {
        return null;
      }
      events.add(event);
    }
    return new HelmHook(r, value, List.copyOf(events));
  }

  public String kind() {
    return resource.kind() == null ? "" : resource.kind();
  }

  /** {@code metadata.name}, or the empty string Helm sees when it is missing. */
  public String name() {
    return resource.name() == null ? "" : resource.name();
  }

  /** Helm's weight, or empty when the annotation is a template expression. */
  public OptionalLong weight() {
    YScalar w = HelmAnnotations.annotation(resource, HelmAnnotations.WEIGHT);
    if (w != null && w.isTemplated()) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(HelmAnnotations.weight(resource));
  }

  /** Whether Helm's place for this hook is known: its kind, name and weight are not template expressions. */
  public boolean placeKnown() {
    return weight().isPresent() && !templated(resource.root().scalar("kind"))
        && !templated(resource.metadata().scalar("name"));
  }

  private static boolean templated(YScalar s) {
    return s != null && s.isTemplated();
  }

  /** The written {@code helm.sh/hook-delete-policy} value, or null. */
  public YScalar deletePolicyValue() {
    return HelmAnnotations.annotation(resource, HelmAnnotations.DELETE_POLICY);
  }

  /**
   * The delete policies Helm applies: the known ones written, or {@code before-hook-creation} when
   * nothing is written. Unknown items apply nothing but still turn the default off. Null when the value
   * is a template expression.
   */
  public List<DeletePolicy> deletePolicies() {
    YMap.Entry e = HelmAnnotations.entry(resource, HelmAnnotations.DELETE_POLICY);
    if (e == null) {
      return List.of(DeletePolicy.DEFAULT);
    }
    if (!(e.value() instanceof YScalar v)) {
      return List.of();
    }
    if (v.isTemplated()) {
      return null;
    }
    List<DeletePolicy> out = new ArrayList<>();
    for (HelmAnnotations.Item item : HelmAnnotations.items(v)) {
      DeletePolicy p = DeletePolicy.parse(item.normalized());
      if (p != null && !out.contains(p)) {
        out.add(p);
      }
    }
    return out;
  }

  /** Whether Helm waits for this hook to finish: only Jobs and Pods are awaited. */
  public boolean isAwaited() {
    return kind().equals("Job") || kind().equals("Pod");
  }

  /** The pod spec of this hook (a Pod's spec, a Job's or CronJob's template spec), or null. */
  public PodSpec podSpec(HookDocument doc) {
    for (PodSpec p : doc.podSpecs()) {
      if (p.owner() == resource) {
        return p;
      }
    }
    return null;
  }
}
