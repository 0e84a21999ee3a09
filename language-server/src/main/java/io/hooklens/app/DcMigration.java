package io.hooklens.app;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.snakeyaml.engine.v2.api.Dump;
import org.snakeyaml.engine.v2.api.DumpSettings;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.common.FlowStyle;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;

/**
 * Turns OpenShift DeploymentConfigs, deprecated since OpenShift 4.14, into Deployments, with their lifecycle
 * hooks as Helm hook Jobs. What has no equivalent is said in notes, which lead the result as comments.
 */
public final class DcMigration {
  /** A migrated text and what the user must know about it. */
  public record Result(String text, List<String> notes, int migrated) {}

  /** Input that is not YAML or JSON, with the position where it fails. */
  public static final class BadInput extends Exception {
    public BadInput(String message) {
      super(message);
    }
  }

  private static final ObjectWriter JSON = new ObjectMapper().writerWithDefaultPrettyPrinter();

  private DcMigration() {}

  /** Migrates every DeploymentConfig in the documents of {@code text}, inside Lists and Templates too. */
  public static Result migrate(String text) throws BadInput {
    List<String> notes = new ArrayList<>();
    int[] count = {0};
    List<Object> out = objects(text, notes, count);
    StringBuilder sb = new StringBuilder();
    for (String note : notes) {
      sb.append("# ").append(note).append('\n');
    }
    // The hook Jobs share the template's env and volumes: written out again, not as YAML anchors.
    Dump dump = new Dump(DumpSettings.builder().setDefaultFlowStyle(FlowStyle.BLOCK).setDereferenceAliases(true)
        .build());
    for (int i = 0; i < out.size(); i++) {
      if (i > 0) {
        sb.append("---\n");
      }
      sb.append(dump.dumpToString(out.get(i)));
    }
    return new Result(sb.toString(), List.copyOf(notes), count[0]);
  }

  /**
   * Migrates as {@link #migrate} does, written as one JSON object: the only object, or a v1 List of them all.
   * JSON has no comments, so the notes are only in the result's notes.
   */
  public static Result migrateJson(String text) throws BadInput {
    List<String> notes = new ArrayList<>();
    int[] count = {0};
    List<Object> out = objects(text, notes, count);
    Map<Object, Object> list = new LinkedHashMap<>();
    list.put("apiVersion", "v1");
    list.put("kind", "List");
    list.put("items", out);
    Object json = out.size() == 1 ? out.get(0) : list;
    try {
      return new Result(JSON.writeValueAsString(json) + "\n", List.copyOf(notes), count[0]);
    } catch (JsonProcessingException e) {
      // YAML allows keys JSON has not, such as null.
      throw new BadInput("cannot be written as JSON: " + e.getOriginalMessage());
    }
  }

  private static List<Object> objects(String text, List<String> notes, int[] count) throws BadInput {
    List<Object> docs = new ArrayList<>();
    try {
      new Load(LoadSettings.builder().build()).loadAllFromString(text).forEach(docs::add);
    } catch (MarkedYamlEngineException e) {
      throw new BadInput("line " + (e.getProblemMark().map(m -> m.getLine() + 1).orElse(0)) + ": "
          + e.getProblem());
    } catch (YamlEngineException e) {
      throw new BadInput(e.getMessage());
    }
    List<Object> out = new ArrayList<>();
    for (Object doc : docs) {
      acyclic(doc, java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>()));
      out.addAll(migrateObject(doc, notes, count));
    }
    return out;
  }

  /** Refuses a node that holds itself through an alias: it has no end to write out. */
  private static void acyclic(Object o, java.util.Set<Object> path) throws BadInput {
    if (!(o instanceof Map<?, ?>) && !(o instanceof List<?>)) {
      return;
    }
    if (!path.add(o)) {
      throw new BadInput("a node holds itself through an alias");
    }
    for (Object child : o instanceof Map<?, ?> m ? m.values() : (List<?>) o) {
      acyclic(child, path);
    }
    path.remove(o);
  }

  /** The objects one object becomes: a DC becomes its Deployment and hook Jobs, a List or Template keeps its shape. */
  private static List<Object> migrateObject(Object o, List<String> notes, int[] count) {
    if (!(o instanceof Map<?, ?> m)) {
      return o == null ? List.of() : List.of(o);
    }
    Object kind = m.get("kind");
    if ("DeploymentConfig".equals(kind)) {
      count[0]++;
      return deploymentConfig(m, notes);
    }
    String items = "List".equals(kind) ? "items" : "Template".equals(kind) ? "objects" : null;
    if (items != null && m.get(items) instanceof List<?> list) {
      Map<Object, Object> copy = new LinkedHashMap<>(m);
      List<Object> migrated = new ArrayList<>();
      for (Object item : list) {
        migrated.addAll(migrateObject(item, notes, count));
      }
      copy.put(items, migrated);
      return List.of(copy);
    }
    return List.of(o);
  }

  private static List<Object> deploymentConfig(Map<?, ?> dc, List<String> notes) {
    Map<?, ?> meta = map(dc.get("metadata"));
    // Notes and Job names need a name; a DC without one still migrates.
    String name = meta.get("name") == null ? "deploymentconfig" : String.valueOf(meta.get("name"));
    Map<?, ?> spec = map(dc.get("spec"));
    Map<?, ?> template = map(spec.get("template"));
    Map<Object, Object> dspec = new LinkedHashMap<>();
    if (spec.containsKey("replicas")) {
      dspec.put("replicas", spec.get("replicas"));
    }
    Object selector = spec.get("selector");
    if (selector == null) {
      // A DC without a selector selects its template's labels; a Deployment must say so.
      selector = map(template.get("metadata")).get("labels");
    }
    dspec.put("selector", Map.of("matchLabels", map(selector)));
    Map<?, ?> strategy = map(spec.get("strategy"));
    boolean recreate = "Recreate".equals(strategy.get("type"));
    Map<?, ?> params = map(strategy.get(recreate ? "recreateParams" : "rollingParams"));
    Map<Object, Object> dstrategy = new LinkedHashMap<>();
    dstrategy.put("type", recreate ? "Recreate" : "RollingUpdate");
    if (!recreate) {
      Map<Object, Object> rolling = new LinkedHashMap<>();
      for (String key : List.of("maxSurge", "maxUnavailable")) {
        if (params.containsKey(key)) {
          rolling.put(key, params.get(key));
        }
      }
      if (!rolling.isEmpty()) {
        dstrategy.put("rollingUpdate", rolling);
      }
      for (String key : List.of("intervalSeconds", "updatePeriodSeconds", "timeoutSeconds")) {
        if (params.containsKey(key)) {
          notes.add(name + ": rollingParams." + key + " has no Deployment field; see progressDeadlineSeconds.");
        }
      }
    }
    dspec.put("strategy", dstrategy);
    dspec.put("template", template);
    triggers(name, spec.get("triggers"), notes);
    Map<Object, Object> deployment = new LinkedHashMap<>();
    deployment.put("apiVersion", "apps/v1");
    deployment.put("kind", "Deployment");
    deployment.put("metadata", meta);
    deployment.put("spec", dspec);
    List<Object> result = new ArrayList<>();
    result.add(deployment);
    // Both strategies' hooks count: a DC of one type may carry the other's params left from an edit.
    for (String paramsKey : List.of("rollingParams", "recreateParams")) {
      Map<?, ?> p = map(strategy.get(paramsKey));
      for (String phase : List.of("pre", "mid", "post")) {
        if (p.get(phase) == null) {
          continue;
        }
        if (!(p.get(phase) instanceof Map<?, ?> hook)) {
          notes.add(name + ": the " + phase + " hook is not a mapping and was not migrated.");
          continue;
        }
        if ("mid".equals(phase)) {
          notes.add(name + ": the mid hook has no equivalent: a Deployment has no moment when the old pods are"
              + " gone and the new ones not yet started. Run it as part of a pre hook or drop it.");
          continue;
        }
        hookJob(name, phase, hook, map(template.get("spec")), notes).ifPresent(result::add);
      }
    }
    return result;
  }

  private static void triggers(String name, Object triggers, List<String> notes) {
    if (!(triggers instanceof List<?> list)) {
      return;
    }
    for (Object t : list) {
      Object type = map(t).get("type");
      if ("ImageChange".equals(type)) {
        notes.add(name + ": the ImageChange trigger is gone: reference images by digest or tag in the template,"
            + " or let an image policy (the image.openshift.io/triggers annotation or an image updater) roll it out.");
      } else if ("ConfigChange".equals(type)) {
        notes.add(name + ": the ConfigChange trigger is what a Deployment always does: a template change rolls out.");
      }
    }
  }

  private static java.util.Optional<Object> hookJob(String name, String phase, Map<?, ?> hook, Map<?, ?> podSpec,
      List<String> notes) {
    Map<?, ?> exec = map(hook.get("execNewPod"));
    if (exec.isEmpty()) {
      notes.add(name + ": the " + phase + " hook has no execNewPod and was not migrated (tagImages has no"
          + " equivalent).");
      return java.util.Optional.empty();
    }
    Object containerName = exec.get("containerName");
    Map<?, ?> source = Map.of();
    if (podSpec.get("containers") instanceof List<?> containers) {
      for (Object c : containers) {
        if (map(c).get("name") != null && map(c).get("name").equals(containerName)) {
          source = map(c);
        }
      }
    }
    if (source.isEmpty()) {
      notes.add(name + ": the " + phase + " hook names container " + containerName
          + ", which the template does not have; its Job has no image.");
    }
    Map<Object, Object> container = new LinkedHashMap<>();
    container.put("name", containerName instanceof String ? containerName : phase + "-hook");
    if (source.get("image") != null) {
      container.put("image", source.get("image"));
    }
    container.put("command", exec.get("command"));
    List<Object> env = new ArrayList<>();
    if (source.get("env") instanceof List<?> e) {
      env.addAll(e);
    }
    if (exec.get("env") instanceof List<?> e) {
      env.addAll(e);
    }
    if (!env.isEmpty()) {
      container.put("env", env);
    }
    Map<Object, Object> jobPod = new LinkedHashMap<>();
    jobPod.put("restartPolicy", "Never");
    jobPod.put("containers", List.of(container));
    if (exec.get("volumes") instanceof List<?> wanted && podSpec.get("volumes") instanceof List<?> volumes) {
      List<Object> kept = new ArrayList<>();
      for (Object v : volumes) {
        if (wanted.contains(map(v).get("name"))) {
          kept.add(v);
        }
      }
      jobPod.put("volumes", kept);
      if (source.get("volumeMounts") instanceof List<?> mounts) {
        container.put("volumeMounts", mounts.stream().filter(mnt -> wanted.contains(map(mnt).get("name"))).toList());
      }
    }
    String policy = hook.get("failurePolicy") == null ? "Abort" : String.valueOf(hook.get("failurePolicy"));
    int backoff;
    String delete;
    switch (policy) {
      case "Retry" -> {
        // A DC retries until it succeeds; a Job gives up after backoffLimit tries, so the release can end.
        backoff = 6;
        delete = "before-hook-creation,hook-succeeded";
        notes.add(name + ": " + phase + " hook failurePolicy Retry became backoffLimit 6: a DC retries without"
            + " end, a Job gives up and fails the release after six tries.");
      }
      case "Ignore" -> {
        backoff = 0;
        delete = "before-hook-creation,hook-succeeded,hook-failed";
        notes.add(name + ": " + phase + " hook failurePolicy Ignore has no Helm equivalent: a failed hook Job"
            + " fails the release. Make the command exit 0 on failure if the release must go on.");
      }
      default -> {
        backoff = 0;
        // A failed Job stays for its logs; the next release deletes it before creating its own.
        delete = "before-hook-creation,hook-succeeded";
        notes.add(name + ": " + phase + " hook failurePolicy " + policy + " became backoffLimit 0: a failed"
            + " Job fails the release and stays for its logs until the next release.");
      }
    }
    String when = "pre".equals(phase) ? "pre-install,pre-upgrade" : "post-install,post-upgrade";
    if ("pre".equals(phase)) {
      notes.add(name + ": the pre hook became a Helm hook Job, not an init container: a DC pre hook runs once"
          + " per rollout as a hook Job runs once per release, while an init container runs on every pod start.");
    }
    Map<Object, Object> annotations = new LinkedHashMap<>();
    annotations.put("helm.sh/hook", when);
    annotations.put("helm.sh/hook-delete-policy", delete);
    Map<Object, Object> jmeta = new LinkedHashMap<>();
    jmeta.put("name", name + "-" + phase + "-hook");
    jmeta.put("annotations", annotations);
    Map<Object, Object> jspec = new LinkedHashMap<>();
    jspec.put("backoffLimit", backoff);
    jspec.put("template", Map.of("spec", jobPod));
    Map<Object, Object> job = new LinkedHashMap<>();
    job.put("apiVersion", "batch/v1");
    job.put("kind", "Job");
    job.put("metadata", jmeta);
    job.put("spec", jspec);
    return java.util.Optional.of(job);
  }

  private static Map<?, ?> map(Object o) {
    return o instanceof Map<?, ?> m ? m : Map.of();
  }
}
