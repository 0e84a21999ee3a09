package io.hooklens.core.model.helm;

import io.hooklens.core.model.Resource;
import io.hooklens.core.model.Spelling;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YScalar;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What Helm reads from hook annotations, normalised exactly as Helm does it: values are split on
 * commas and each item is trimmed and lower-cased (events and policies); the weight is not trimmed.
 */
public final class HelmAnnotations {
  /** What Go's {@code strconv.Atoi} accepts before its range check; compiled once, read on every edit. */
  private static final Pattern GO_INT = Pattern.compile("[+-]?[0-9]+");

  public static final String HOOK = "helm.sh/hook";
  public static final String WEIGHT = "helm.sh/hook-weight";
  public static final String DELETE_POLICY = "helm.sh/hook-delete-policy";
  public static final String OUTPUT_LOG_POLICY = "helm.sh/hook-output-log-policy";
  public static final String RESOURCE_POLICY = "helm.sh/resource-policy";
  public static final String DELETE_TIMEOUT = "helm.sh/hook-delete-timeout";

  /** Keys Helm 3 and 4 read, plus the Helm 2 delete timeout that HL212 reports. */
  public static final List<String> KNOWN_KEYS =
      List.of(HOOK, WEIGHT, DELETE_POLICY, OUTPUT_LOG_POLICY, RESOURCE_POLICY, DELETE_TIMEOUT);

  public static final Set<String> OUTPUT_LOG_POLICIES = Set.copyOf(OutputLogPolicy.SPELLINGS);

  /** The {@code helm.sh/resource-policy} value Helm knows: the resource stays on uninstall and upgrades. */
  public static final String KEEP = "keep";

  private HelmAnnotations() {}

  /** One comma-separated item as written and as Helm normalises it, with the annotation value's node. */
  public record Item(String raw, String normalized, YScalar value) {
    public boolean isCanonical() {
      return raw.equals(normalized);
    }
  }

  /** The annotation value node of a resource, or null when absent or not a scalar. */
  public static YScalar annotation(Resource r, String key) {
    YMap a = r.annotations();
    return a == null ? null : a.scalar(key);
  }

  /** The annotation entry (key and value) of a resource, or null. */
  public static YMap.Entry entry(Resource r, String key) {
    YMap a = r.annotations();
    return a == null ? null : a.entry(key);
  }

  /**
   * Splits a list annotation as Helm does: every comma-separated item, trimmed and lower-cased;
   * an empty value yields one empty item, as Go's strings.Split does.
   */
  public static List<Item> items(YScalar value) {
    List<Item> out = new ArrayList<>();
    if (value == null || value.type() == YScalar.Type.NULL) {
      return out;
    }
    for (String part : value.value().split(",", -1)) {
      out.add(new Item(part, part.trim().toLowerCase(Locale.ROOT), value));
    }
    return out;
  }

  /** Whether a resource is a Helm hook: it has a known, non-template {@code helm.sh/hook} value. */
  public static boolean isHook(Resource r) {
    YScalar v = annotation(r, HOOK);
    return v != null && !v.isTemplated();
  }

  /** The hook weight as Helm computes it: Go's {@code strconv.Atoi} of the raw string, 0 on failure. */
  public static long weight(Resource r) {
    YScalar v = annotation(r, WEIGHT);
    if (v == null || v.type() == YScalar.Type.NULL) {
      return 0;
    }
    return parseWeight(v.value());
  }

  /** Go's {@code strconv.Atoi}: optional sign, decimal digits only, 64-bit range; otherwise 0. */
  public static long parseWeight(String s) {
    if (!GO_INT.matcher(s).matches()) {
      return 0;
    }
    try {
      return Long.parseLong(s.startsWith("+") ? s.substring(1) : s);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** Whether {@code s} parses with Go's {@code strconv.Atoi}. */
  public static boolean isGoInt(String s) {
    if (!GO_INT.matcher(s).matches()) {
      return false;
    }
    try {
      Long.parseLong(s.startsWith("+") ? s.substring(1) : s);
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /** Known values within three edits of {@code s} (Damerau-Levenshtein), nearest first. */
  public static List<String> nearest(String s, List<String> candidates) {
    return Spelling.nearest(s, candidates, 3);
  }
}
