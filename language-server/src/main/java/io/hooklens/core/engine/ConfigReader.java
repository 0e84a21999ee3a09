package io.hooklens.core.engine;

import io.hooklens.core.yaml.ParseProblem;
import io.hooklens.core.yaml.ParsedFile;
import io.hooklens.core.yaml.SourceText;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.core.yaml.YSeq;
import io.hooklens.core.yaml.YamlReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Reads {@code .hooklens.yaml}. Every mistake is an error with a position, and unknown keys are
 * errors: a misspelled setting that silently does nothing is worse than a refusal.
 *
 * <pre>
 * targets:
 *   kubernetes: "1.34"
 *   helm: "3"                # or "4"
 *   deployer: helm           # or argocd, flux
 * rules:
 *   HL402: off               # or error | warning | info
 *   HL401:
 *     severity: error
 *     params: {shutdownSeconds: 20}
 * exclude: ["generated/**"]
 * helm:
 *   values: [ci/prod.yaml]   # more values sets, relative to each chart
 *   set: {image.tag: "1.2"}  # on every values set, as --set
 *   releaseName: shop        # .Release.Name of every render
 *   namespace: web           # .Release.Namespace of every render
 * baseline: .hooklens-baseline.json   # findings recorded there are not reported
 * </pre>
 */
public final class ConfigReader {
  /**
   * The configuration read, and what was wrong with it ({@code line:col: message}, 1-based).
   *
   * @param baseline the baseline file as written, relative to the configuration file; null when none is named.
   *     Kept beside the settings, not in them: it is about which findings a lint reports, not how files are judged
   */
  public record Result(Config config, List<String> errors, String baseline) {
    Result(Config config, List<String> errors) {
      this(config, errors, null);
    }
  }

  private static final Set<String> TOP = Set.of("targets", "rules", "exclude", "helm", "baseline");

  private ConfigReader() {}

  public static Result read(String text, RuleRegistry registry) {
    List<String> errors = new ArrayList<>();
    ParsedFile parsed = new YamlReader().read(new SourceText(text), false);
    for (ParseProblem p : parsed.problems()) {
      errors.add(at(p.range().start().line(), p.range().start().column()) + p.message());
    }
    Targets targets = Targets.DEFAULT;
    Map<String, Config.RuleSetting> rules = new LinkedHashMap<>();
    List<String> exclude = new ArrayList<>();
    YNode root = parsed.documents().isEmpty() ? null : parsed.documents().get(0).root();
    if (root == null || (root instanceof YScalar s && s.type() == YScalar.Type.NULL)) {
      return new Result(new Config(targets, rules, exclude), errors);
    }
    if (!(root instanceof YMap top)) {
      errors.add(at(root) + "the configuration must be a mapping");
      return new Result(new Config(targets, rules, exclude), errors);
    }
    for (YMap.Entry e : top.entries()) {
      if (!TOP.contains(e.key().value())) {
        errors.add(at(e.key()) + "unknown setting \"" + e.key().value() + "\"; known: baseline, exclude, helm, rules, "
            + "targets");
      }
    }
    YNode t = top.get("targets");
    if (t instanceof YMap tm) {
      targets = targets(tm, errors);
    } else if (t != null) {
      errors.add(at(t) + "targets must be a mapping");
    }
    YNode r = top.get("rules");
    if (r instanceof YMap rm) {
      for (YMap.Entry e : rm.entries()) {
        Config.RuleSetting setting = ruleSetting(e, registry, errors);
        if (setting != null) {
          rules.put(e.key().value(), setting);
        }
      }
    } else if (r != null) {
      errors.add(at(r) + "rules must be a mapping of rule id to setting");
    }
    YNode x = top.get("exclude");
    if (x instanceof YSeq xs) {
      for (YNode item : xs.items()) {
        if (item instanceof YScalar s && s.type() != YScalar.Type.NULL) {
          exclude.add(s.value());
        } else {
          errors.add(at(item) + "exclude entries must be path globs");
        }
      }
    } else if (x != null) {
      errors.add(at(x) + "exclude must be a list of path globs");
    }
    YNode h = top.get("helm");
    Config.Charts charts = Config.Charts.NONE;
    if (h instanceof YMap hm) {
      charts = charts(hm, errors);
    } else if (h != null) {
      errors.add(at(h) + "helm must be a mapping with values, set, releaseName and namespace");
    }
    YNode b = top.get("baseline");
    String baseline = null;
    if (b instanceof YScalar bs && bs.type() != YScalar.Type.NULL && !bs.value().isBlank()) {
      baseline = bs.value();
    } else if (b != null) {
      errors.add(at(b) + "baseline must be the path of a baseline file, such as .hooklens-baseline.json");
    }
    return new Result(new Config(targets, rules, exclude, charts), errors, baseline);
  }

  private static Config.Charts charts(YMap hm, List<String> errors) {
    List<String> values = new ArrayList<>();
    Map<String, String> set = new LinkedHashMap<>();
    String releaseName = null;
    String namespace = null;
    for (YMap.Entry e : hm.entries()) {
      switch (e.key().value()) {
        case "releaseName" -> releaseName = name(e, Config.Charts::releaseNameProblem, errors);
        case "namespace" -> namespace = name(e, Config.Charts::namespaceProblem, errors);
        case "values" -> {
          if (!(e.value() instanceof YSeq vs)) {
            errors.add(at(e.value()) + "helm.values must be a list of values files");
            continue;
          }
          for (YNode item : vs.items()) {
            if (item instanceof YScalar s && s.type() != YScalar.Type.NULL && !s.value().isBlank()) {
              values.add(s.value());
            } else {
              errors.add(at(item) + "helm.values entries must be paths of values files");
            }
          }
        }
        case "set" -> {
          if (!(e.value() instanceof YMap sm)) {
            errors.add(at(e.value()) + "helm.set must be a mapping of value path to value, such as {image.tag: \"1.2\"}");
            continue;
          }
          for (YMap.Entry se : sm.entries()) {
            if (se.value() instanceof YScalar s && s.type() != YScalar.Type.NULL) {
              String error = StrVals.parse(se.key().value() + "=" + s.value()).error();
              if (error == null) {
                set.put(se.key().value(), s.value());
              } else {
                errors.add(at(se.key()) + "helm.set " + se.key().value() + ": " + error + ", as on helm's --set");
              }
            } else {
              errors.add(at(se.value()) + "helm.set values must be scalars, as on helm's --set");
            }
          }
        }
        default -> errors.add(at(e.key()) + "unknown helm setting \"" + e.key().value()
            + "\"; known: namespace, releaseName, set, values");
      }
    }
    return new Config.Charts(values, set, releaseName, namespace);
  }

  /** A release or namespace name of {@code helm:}, or null with an error when it is none. */
  private static String name(YMap.Entry e, UnaryOperator<String> problem, List<String> errors) {
    if (!(e.value() instanceof YScalar s) || s.type() == YScalar.Type.NULL) {
      errors.add(at(e.value()) + "helm." + e.key().value() + " must be a name");
      return null;
    }
    String why = problem.apply(s.value());
    if (why != null) {
      errors.add(at(e.value()) + "helm." + e.key().value() + ": " + why);
      return null;
    }
    return s.value();
  }

  private static Targets targets(YMap tm, List<String> errors) {
    Targets targets = Targets.DEFAULT;
    for (YMap.Entry e : tm.entries()) {
      String key = e.key().value();
      String value = e.value() instanceof YScalar s && s.type() != YScalar.Type.NULL ? s.value() : null;
      switch (key) {
        case "kubernetes" -> {
          Version v = Version.parse(value);
          if (v == null) {
            errors.add(at(e.value()) + "targets.kubernetes must be a version such as \"1.34\"");
          } else {
            targets = targets.withKubernetes(v);
          }
        }
        case "helm" -> {
          Optional<Targets.Helm> h = Targets.Helm.parse(value);
          if (h.isEmpty()) {
            errors.add(at(e.value()) + "targets.helm must be \"3\" or \"4\"");
          } else {
            targets = targets.withHelm(h.get());
          }
        }
        case "deployer" -> {
          Optional<Targets.Deployer> d = Targets.Deployer.parse(value);
          if (d.isEmpty()) {
            errors.add(at(e.value()) + "targets.deployer must be helm, argocd or flux");
          } else {
            targets = targets.withDeployer(d.get());
          }
        }
        default -> errors.add(at(e.key()) + "unknown target \"" + key + "\"; known: deployer, helm, kubernetes");
      }
    }
    return targets;
  }

  private static Config.RuleSetting ruleSetting(YMap.Entry e, RuleRegistry registry, List<String> errors) {
    String key = e.key().value();
    List<RuleDescriptor> named = registry.all().stream().filter(d -> d.matches(key)).toList();
    if (named.isEmpty()) {
      errors.add(at(e.key()) + "\"" + key + "\" is not a rule id, name or pattern");
      return null;
    }
    YNode v = e.value();
    if (v instanceof YScalar s) {
      return severityOrOff(s, errors);
    }
    if (!(v instanceof YMap m)) {
      errors.add(at(v) + "a rule setting is a severity, off, or a mapping with severity and params");
      return null;
    }
    Severity severity = null;
    boolean off = false;
    Map<String, Object> params = new LinkedHashMap<>();
    for (YMap.Entry se : m.entries()) {
      switch (se.key().value()) {
        case "severity" -> {
          Config.RuleSetting s = se.value() instanceof YScalar sc ? severityOrOff(sc, errors) : null;
          if (s != null) {
            severity = s.severity();
            off = s.off();
          }
        }
        case "params" -> {
          if (!(se.value() instanceof YMap pm)) {
            errors.add(at(se.value()) + "params must be a mapping");
            continue;
          }
          for (YMap.Entry pe : pm.entries()) {
            params.put(pe.key().value(), pe.value() instanceof YScalar ps ? ps.value() : pe.value().toString());
          }
          for (RuleDescriptor d : named) {
            List<String> paramErrors = new ArrayList<>();
            Params.bind(d.paramsType(), params, paramErrors);
            for (String pe : paramErrors) {
              errors.add(at(se.value()) + d.id() + ": " + pe);
            }
          }
        }
        default -> errors.add(at(se.key()) + "unknown rule setting \"" + se.key().value()
            + "\"; known: params, severity");
      }
    }
    return new Config.RuleSetting(severity, off, params);
  }

  private static Config.RuleSetting severityOrOff(YScalar s, List<String> errors) {
    String v = s.value().trim();
    // YAML 1.1 reads a bare off as false.
    if (v.equalsIgnoreCase("off") || v.equalsIgnoreCase("false")) {
      return new Config.RuleSetting(null, true, Map.of());
    }
    Severity sev = Severity.parse(v);
    if (sev == null) {
      errors.add(at(s) + "\"" + v + "\" is not a severity; use error, warning, info or off");
      return null;
    }
    return new Config.RuleSetting(sev, false, Map.of());
  }

  private static String at(YNode n) {
    return at(n.range().start().line(), n.range().start().column());
  }

  private static String at(int line, int column) {
    return (line + 1) + ":" + (column + 1) + ": ";
  }
}
