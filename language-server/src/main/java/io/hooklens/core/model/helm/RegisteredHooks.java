package io.hooklens.core.model.helm;

import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YScalar;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What Helm makes of a document's hook annotations when it sorts a rendered chart: whether it reads them
 * at all, which events it registers, which delete policies apply, and which object the hook creates.
 */
public final class RegisteredHooks {
  /** Helm installs files under a chart's {@code crds/} directory as they are, without reading hook annotations. */
  private static final Pattern CRDS_DIR = Pattern.compile("(^|.*[/\\\\])crds[/\\\\].*");

  private RegisteredHooks() {}

  /** The object a hook creates; two documents with the same identity create the same object. */
  public record Identity(String group, String kind, String namespace, String name) {
    public String display() {
      return kind + "/" + name;
    }
  }

  /**
   * Whether Helm reads this resource's hook annotations: only top-level documents count (Helm reads the
   * head of each document, not the items of a List), and nothing under a chart's {@code crds/} directory.
   */
  public static boolean readByHelm(HookDocument doc, Resource r) {
    return r.parent() == null && !CRDS_DIR.matcher(doc.name()).matches();
  }

  /** Whether the resource has a {@code helm.sh/hook} annotation at all, whatever its value. */
  public static boolean hasHookKey(Resource r) {
    YMap a = r.annotations();
    return a != null && a.has(HelmAnnotations.HOOK);
  }

  /**
   * The items of a list annotation as Helm sees them. An empty YAML value reaches Helm as the empty string,
   * which splits into one empty item.
   */
  public static List<HelmAnnotations.Item> items(YScalar value) {
    if (value.type() == YScalar.Type.NULL) {
      return List.of(new HelmAnnotations.Item("", "", value));
    }
    return HelmAnnotations.items(value);
  }

  /**
   * The events Helm registers the resource for, in order, {@code test-success} read as {@code test}; empty
   * when it is no hook, when the value is a template expression, or when Helm skips it for an unknown event.
   */
  public static Optional<List<HelmEvent>> events(Resource r) {
    YScalar v = HelmAnnotations.annotation(r, HelmAnnotations.HOOK);
    if (v == null || v.isTemplated()) {
      return Optional.empty();
    }
    List<HelmEvent> out = new ArrayList<>();
    for (HelmAnnotations.Item i : items(v)) {
      HelmEvent event = HelmEvent.parse(i.normalized());
      if (event == null) {
        return Optional.empty();
      }
      out.add(event);
    }
    return Optional.of(out);
  }

  /**
   * The delete policies Helm applies, with its default ({@code before-hook-creation} when the list is
   * empty, i.e. when the annotation is absent); empty when the value is a template expression.
   */
  public static Optional<Set<String>> deletePolicies(Resource r) {
    YMap a = r.annotations();
    if (a == null || !a.has(HelmAnnotations.DELETE_POLICY)) {
      return Optional.of(Set.of(DeletePolicy.DEFAULT.annotation()));
    }
    YScalar v = a.scalar(HelmAnnotations.DELETE_POLICY);
    if (v == null || v.isTemplated()) {
      return Optional.empty();
    }
    Set<String> out = new LinkedHashSet<>();
    items(v).forEach(i -> out.add(i.normalized()));
    return Optional.of(out);
  }

  /** The hook weight Helm uses, or empty when it is a template expression. */
  public static Optional<Long> weight(Resource r) {
    YScalar v = HelmAnnotations.annotation(r, HelmAnnotations.WEIGHT);
    if (v != null && v.isTemplated()) {
      return Optional.empty();
    }
    return Optional.of(HelmAnnotations.weight(r));
  }

  /**
   * The object the resource creates, or null when its kind, name or namespace is unknown (absent, a
   * template expression, or left to {@code generateName}). An absent namespace is the release namespace.
   */
  public static Identity identity(Resource r) {
    String apiVersion = r.apiVersion() == null ? "" : r.apiVersion();
    String namespace = r.namespace() == null ? "" : r.namespace();
    if (r.kind() == null || r.name() == null || isTemplate(r.kind()) || isTemplate(r.name())
        || isTemplate(apiVersion) || isTemplate(namespace)) {
      return null;
    }
    int slash = apiVersion.indexOf('/');
    return new Identity(slash < 0 ? "" : apiVersion.substring(0, slash), r.kind(), namespace, r.name());
  }

  private static boolean isTemplate(String s) {
    return s.contains("{{") || s.contains("${");
  }
}
