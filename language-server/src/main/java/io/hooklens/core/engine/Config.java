package io.hooklens.core.engine;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Settings for a lint run, from {@code .hooklens.yaml}, flags or editor settings.
 *
 * @param rules per-rule settings keyed by id, name or pattern as written
 * @param exclude path globs that are not linted, relative to the configuration file
 * @param charts how charts are rendered beyond their own values
 * @param chartNotRendered the files are those of a chart that Helm could not render, linted one by one in its
 *     place, so a template that only becomes YAML when rendered cannot be checked at all
 * @param chartCrds the names of the CustomResourceDefinitions in the {@code crds/} directories of the chart being
 *     linted (which Helm installs before its templates), empty outside a chart
 */
public record Config(Targets targets, Map<String, RuleSetting> rules, List<String> exclude, Charts charts,
    boolean chartNotRendered, Set<String> chartCrds) {
  public static final Config DEFAULT = new Config(Targets.DEFAULT, Map.of(), List.of());

  public Config(Targets targets, Map<String, RuleSetting> rules, List<String> exclude) {
    this(targets, rules, exclude, Charts.NONE);
  }

  public Config(Targets targets, Map<String, RuleSetting> rules, List<String> exclude, Charts charts) {
    this(targets, rules, exclude, charts, false, Set.of());
  }

  public Config {
    chartCrds = Set.copyOf(chartCrds);
  }

  /**
   * The values sets charts are rendered with besides their own ({@code helm:} in {@code .hooklens.yaml}).
   *
   * @param values values files, each one more values set on top of the chart's values.yaml, as
   *     {@code lint --values}; relative paths are relative to the chart, and a chart without the file
   *     is rendered without it
   * @param set values applied to every values set, each {@code KEY: VALUE} as {@code --set KEY=VALUE}, in
   *     order: a later one wins where two set the same value
   * @param releaseName {@code .Release.Name} of every render, or null for the default
   * @param namespace {@code .Release.Namespace} of every render, or null for the default
   */
  public record Charts(List<String> values, Map<String, String> set, String releaseName, String namespace) {
    public static final Charts NONE = new Charts(List.of(), Map.of());

    /** Helm's rule for a release name ({@code helm install NAME}), at most 53 characters. */
    private static final Pattern RELEASE =
        Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    /** A namespace is a DNS label (RFC 1123), at most 63 characters. */
    private static final Pattern NAMESPACE = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

    public Charts {
      values = List.copyOf(values);
      set = Collections.unmodifiableMap(new LinkedHashMap<>(set));
    }

    public Charts(List<String> values, Map<String, String> set) {
      this(values, set, null, null);
    }

    /** Why Helm would refuse a release name, or null when it takes it. */
    public static String releaseNameProblem(String name) {
      return name.length() <= 53 && RELEASE.matcher(name).matches() ? null
          : "\"" + name + "\" is no release name Helm takes: lower-case letters, digits, '-' and '.', starting and"
              + " ending with a letter or digit, at most 53 characters";
    }

    /** Why Kubernetes would refuse a namespace name, or null when it takes it. */
    public static String namespaceProblem(String name) {
      return name.length() <= 63 && NAMESPACE.matcher(name).matches() ? null
          : "\"" + name + "\" is no namespace name: lower-case letters, digits and '-', starting and ending with a"
              + " letter or digit, at most 63 characters";
    }
  }

  /**
   * One rule's setting.
   *
   * @param severity replaces the rule's severity; null keeps it
   * @param off the rule does not run
   * @param params raw parameter values, bound and checked when the configuration is read
   */
  public record RuleSetting(Severity severity, boolean off, Map<String, Object> params) {}

  public Config withTargets(Targets t) {
    return new Config(t, rules, exclude, charts, chartNotRendered, chartCrds);
  }

  /** These settings for the files of a chart that Helm could not render. */
  public Config forChartNotRendered() {
    return new Config(targets, rules, exclude, charts, true, chartCrds);
  }

  /** These settings for a chart whose crds/ directories hold CustomResourceDefinitions of these names. */
  public Config withChartCrds(Set<String> names) {
    return new Config(targets, rules, exclude, charts, chartNotRendered, names);
  }
}
