package io.hooklens.lsp;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.RuleRegistry;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.engine.StrVals;
import io.hooklens.core.engine.Targets;
import io.hooklens.core.engine.Version;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * The editor settings under the {@code hooklens} section, from {@code initializationOptions} or
 * {@code workspace/didChangeConfiguration}:
 *
 * <pre>
 * {"hooklens": {"targets": {"kubernetes": "1.29", "helm": "4", "deployer": "argocd"},
 *               "rules": {"HL401": "error", "HL402": "off"}, "debounceMs": 150,
 *               "helm": {"values": ["ci/prod.yaml"], "set": {"image.tag": "1.2"}, "releaseName": "shop",
 *                        "namespace": "web"}}}
 * </pre>
 *
 * <p>Reading never fails: a value of the wrong type or out of range keeps its default and is reported
 * through the problem consumer, so one typo cannot cost the user every other setting.
 *
 * @param targets what findings are judged against; an unset value leaves it to {@code .hooklens.yaml}
 * @param rules severities by rule id, name or pattern, as in {@code .hooklens.yaml}; {@code off} disables
 * @param debounceMs how long after the last edit diagnostics are computed
 * @param helm values sets and values charts are rendered with, as {@code helm:} in {@code .hooklens.yaml};
 *     null when the settings do not say
 */
public record Settings(TargetSettings targets, Map<String, Config.RuleSetting> rules, int debounceMs,
    Config.Charts helm) {
  /** The section name, in the client's settings and in {@code workspace/configuration} requests. */
  public static final String SECTION = "hooklens";
  /**
   * No wait by default: a validation of a 5,000-line file takes milliseconds, and edits that arrive
   * while a document is being validated coalesce into one validation of the newest text
   * ({@link DiagnosticsService}). A delay only keeps diagnostics quiet while typing, for who wants that.
   */
  public static final int DEFAULT_DEBOUNCE_MS = 0;
  /** A longer wait would read as a broken server rather than a patient one. */
  public static final int MAX_DEBOUNCE_MS = 10_000;
  public static final Settings DEFAULT = new Settings(new TargetSettings(null, null, null), Map.of(), DEFAULT_DEBOUNCE_MS,
      null);

  /** Keys of the section; {@code trace} belongs to clients ({@code hooklens.trace.server}) and is not ours. */
  private static final Set<String> KEYS = Set.of("targets", "rules", "debounceMs", "helm");
  private static final Set<String> CLIENT_KEYS = Set.of("trace");
  private static final Set<String> TARGET_KEYS = Set.of("kubernetes", "helm", "deployer");

  /**
   * Each target is null when the settings do not say, leaving it to {@code .hooklens.yaml}.
   *
   * @param kubernetes the Kubernetes version to judge against
   * @param helm the Helm major version
   * @param deployer what deploys the charts
   */
  public record TargetSettings(Version kubernetes, Targets.Helm helm, Targets.Deployer deployer) {
    /** The file's targets with the ones these settings name on top. */
    public Targets over(Targets file) {
      return new Targets(kubernetes != null ? kubernetes : file.kubernetes(), helm != null ? helm : file.helm(),
          deployer != null ? deployer : file.deployer());
    }
  }

  /**
   * The {@code hooklens} section of a settings payload: the value of its {@code hooklens} key, or the
   * payload itself when it already is the section (some clients send only their own section). Null
   * when the payload says nothing about Hooklens.
   */
  public static JsonObject section(Object payload) {
    JsonElement json = payload instanceof JsonElement e ? e : new Gson().toJsonTree(payload);
    if (json == null || !json.isJsonObject()) {
      return null;
    }
    JsonObject o = json.getAsJsonObject();
    if (o.has(SECTION)) {
      JsonElement s = o.get(SECTION);
      return s != null && s.isJsonObject() ? s.getAsJsonObject() : new JsonObject();
    }
    return o.keySet().stream().anyMatch(KEYS::contains) ? o : null;
  }

  /** Reads a section; every value that cannot be used is reported and replaced by its default. */
  public static Settings read(JsonObject section, RuleRegistry registry, Consumer<String> problems) {
    if (section == null) {
      return DEFAULT;
    }
    for (String key : section.keySet()) {
      if (!KEYS.contains(key) && !CLIENT_KEYS.contains(key)) {
        problems.accept("unknown setting " + SECTION + "." + key + " ignored; known: debounceMs, helm, rules, targets");
      }
    }
    return new Settings(targets(section.get("targets"), problems), rules(section.get("rules"), registry, problems),
        debounce(section.get("debounceMs"), problems), helm(section.get("helm"), problems));
  }

  /**
   * The {@code helm} object. Values files are a list of paths, relative to each chart; set values are strings,
   * numbers or booleans, as on {@code --set}; the release name and namespace are names Helm and Kubernetes take.
   * What cannot be used is reported and left out.
   */
  private static Config.Charts helm(JsonElement json, Consumer<String> problems) {
    if (json == null || json.isJsonNull()) {
      return null;
    }
    if (!json.isJsonObject()) {
      problems.accept(SECTION + ".helm must be an object such as {\"values\": [\"ci/prod.yaml\"]}; ignored");
      return null;
    }
    List<String> values = new ArrayList<>();
    Map<String, String> set = new LinkedHashMap<>();
    String releaseName = null;
    String namespace = null;
    for (Map.Entry<String, JsonElement> e : json.getAsJsonObject().entrySet()) {
      JsonElement v = e.getValue();
      switch (e.getKey()) {
        case "values" -> {
          if (v.isJsonArray()) {
            for (JsonElement item : v.getAsJsonArray()) {
              if (item instanceof JsonPrimitive p && p.isString() && !p.getAsString().isBlank()) {
                values.add(p.getAsString().strip());
              } else {
                problems.accept(SECTION + ".helm.values: " + item + " is not a path; ignored");
              }
            }
          } else if (!v.isJsonNull()) {
            problems.accept(SECTION + ".helm.values must be a list of values files; ignored");
          }
        }
        case "set" -> {
          if (v.isJsonObject()) {
            for (Map.Entry<String, JsonElement> se : v.getAsJsonObject().entrySet()) {
              if (!(se.getValue() instanceof JsonPrimitive p)) {
                problems.accept(SECTION + ".helm.set." + se.getKey() + " must be a string, number or boolean; ignored");
                continue;
              }
              String error = StrVals.parse(se.getKey() + "=" + p.getAsString()).error();
              if (error == null) {
                set.put(se.getKey(), p.getAsString());
              } else {
                problems.accept(SECTION + ".helm.set." + se.getKey() + ": " + error + ", as on helm's --set; ignored");
              }
            }
          } else if (!v.isJsonNull()) {
            problems.accept(SECTION + ".helm.set must be an object of value path to value; ignored");
          }
        }
        case "releaseName" -> releaseName = name("releaseName", v, Config.Charts::releaseNameProblem, problems);
        case "namespace" -> namespace = name("namespace", v, Config.Charts::namespaceProblem, problems);
        default -> problems.accept("unknown setting " + SECTION + ".helm." + e.getKey() + " ignored; known: namespace,"
            + " releaseName, set, values");
      }
    }
    return new Config.Charts(values, set, releaseName, namespace);
  }

  /**
   * A release name or namespace as Helm would take it on the command line, or null (with a problem) for one it
   * would refuse; an empty one is not set.
   */
  private static String name(String key, JsonElement v, UnaryOperator<String> check, Consumer<String> problems) {
    String value = v instanceof JsonPrimitive p && p.isString() ? p.getAsString().strip() : null;
    if (v.isJsonNull() || "".equals(value)) {
      return null;
    }
    String problem = value == null ? v + " is not a string" : check.apply(value);
    if (problem != null) {
      problems.accept(SECTION + ".helm." + key + ": " + problem + "; ignored, so charts are rendered with the "
          + key + " of .hooklens.yaml, else the default");
      return null;
    }
    return value;
  }

  private static TargetSettings targets(JsonElement json, Consumer<String> problems) {
    if (json == null || json.isJsonNull()) {
      return DEFAULT.targets();
    }
    if (!json.isJsonObject()) {
      problems.accept(SECTION + ".targets must be an object such as {\"kubernetes\": \"1.34\"}; ignored");
      return DEFAULT.targets();
    }
    Version kubernetes = null;
    Targets.Helm helm = null;
    Targets.Deployer deployer = null;
    for (Map.Entry<String, JsonElement> e : json.getAsJsonObject().entrySet()) {
      JsonElement v = e.getValue();
      if (!TARGET_KEYS.contains(e.getKey())) {
        problems.accept("unknown setting " + SECTION + ".targets." + e.getKey() + " ignored; known: deployer, helm,"
            + " kubernetes");
        continue;
      }
      if (v.isJsonNull()) {
        continue;
      }
      // A JSON number keeps its literal text, so 1.30 is not read as 1.3.
      String text = v instanceof JsonPrimitive p ? p.getAsString() : null;
      switch (e.getKey()) {
        case "kubernetes" -> {
          kubernetes = text == null ? null : Version.parse(text);
          if (kubernetes == null) {
            problems.accept(SECTION + ".targets.kubernetes must be a version such as \"1.34\", not " + v + "; ignored");
          }
        }
        case "helm" -> {
          helm = text == null ? null : Targets.Helm.parse(text).orElse(null);
          if (helm == null) {
            problems.accept(SECTION + ".targets.helm must be \"3\" or \"4\", not " + v + "; ignored");
          }
        }
        default -> {
          deployer = text == null ? null : Targets.Deployer.parse(text).orElse(null);
          if (deployer == null) {
            problems.accept(SECTION + ".targets.deployer must be helm, argocd or flux, not " + v + "; ignored");
          }
        }
      }
    }
    return new TargetSettings(kubernetes, helm, deployer);
  }

  private static Map<String, Config.RuleSetting> rules(JsonElement json, RuleRegistry registry,
      Consumer<String> problems) {
    if (json == null || json.isJsonNull()) {
      return Map.of();
    }
    if (!json.isJsonObject()) {
      problems.accept(SECTION + ".rules must be an object of rule id to severity; ignored");
      return Map.of();
    }
    Map<String, Config.RuleSetting> rules = new LinkedHashMap<>();
    for (Map.Entry<String, JsonElement> e : json.getAsJsonObject().entrySet()) {
      String key = e.getKey();
      if (!registry.knows(key)) {
        problems.accept(SECTION + ".rules: \"" + key + "\" is not a rule id, name or pattern; ignored");
        continue;
      }
      Config.RuleSetting setting = ruleSetting(e.getValue());
      if (setting == null) {
        problems.accept(SECTION + ".rules." + key + " must be error, warning, info or off, not " + e.getValue()
            + "; ignored");
        continue;
      }
      rules.put(key, setting);
    }
    return Map.copyOf(rules);
  }

  private static Config.RuleSetting ruleSetting(JsonElement v) {
    if (!(v instanceof JsonPrimitive p)) {
      return null;
    }
    if (p.isBoolean()) {
      return p.getAsBoolean() ? null : new Config.RuleSetting(null, true, Map.of());
    }
    String s = p.getAsString().trim();
    if (s.equalsIgnoreCase("off")) {
      return new Config.RuleSetting(null, true, Map.of());
    }
    Severity severity = Severity.parse(s);
    return severity == null ? null : new Config.RuleSetting(severity, false, Map.of());
  }

  private static int debounce(JsonElement json, Consumer<String> problems) {
    if (json == null || json.isJsonNull()) {
      return DEFAULT_DEBOUNCE_MS;
    }
    if (json instanceof JsonPrimitive p && p.isNumber()) {
      double d = p.getAsDouble();
      if (d >= 0 && d <= MAX_DEBOUNCE_MS && d == Math.rint(d)) {
        return (int) d;
      }
    }
    problems.accept(SECTION + ".debounceMs must be a whole number of milliseconds from 0 to " + MAX_DEBOUNCE_MS
        + ", not " + json + "; using " + DEFAULT_DEBOUNCE_MS);
    return DEFAULT_DEBOUNCE_MS;
  }
}
