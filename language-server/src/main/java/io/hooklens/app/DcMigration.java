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
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.StreamDataWriter;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.common.FlowStyle;
import org.snakeyaml.engine.v2.constructor.StandardConstructor;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.representer.StandardRepresenter;

/**
 * Turns OpenShift DeploymentConfigs, deprecated since OpenShift 4.14, into Deployments, with their lifecycle
 * hooks as Helm hook Jobs. What has no equivalent is said in notes, which lead the result as comments. The
 * input's comments go with what the output makes of the field they were on, or with its note.
 */
public final class DcMigration {
  /** DeploymentConfig spec fields a Deployment's spec has too, with the same meaning and default. */
  private static final List<String> SAME_FIELDS = List.of("replicas", "minReadySeconds", "revisionHistoryLimit",
      "paused");

  /**
   * A migrated text and what the user must know about it; {@code leftOut} names the hooks that could not be
   * written, each also said in a note.
   */
  public record Result(String text, List<String> notes, int migrated, List<String> leftOut) {}

  /** What one migration gathers beside its objects. */
  private static final class Run {
    final List<String> notes = new ArrayList<>();
    final List<String> leftOut = new ArrayList<>();
    final KeptComments kept = new KeptComments();
    int count;

    /** Adds a note and answers its index, for the comments that go with it. */
    int note(String text) {
      notes.add(text);
      return notes.size() - 1;
    }
  }

  /** Input that is not YAML or JSON, with the position where it fails. */
  public static final class BadInput extends Exception {
    public BadInput(String message) {
      super(message);
    }
  }

  private static final ObjectWriter JSON = new ObjectMapper().writerWithDefaultPrettyPrinter();
  private static final ObjectWriter FLOW = new ObjectMapper().writer();

  private DcMigration() {}

  /** Migrates every DeploymentConfig in the documents of {@code text}, inside Lists and Templates too. */
  public static Result migrate(String text) throws BadInput {
    Run run = new Run();
    List<Object> out = objects(text, run);
    // The hook Jobs share the template's env and volumes: written out again, not as YAML anchors.
    DumpSettings settings = DumpSettings.builder().setDefaultFlowStyle(FlowStyle.BLOCK).setDereferenceAliases(true)
        .setDumpComments(true).build();
    List<Node> nodes = new ArrayList<>();
    for (Object o : out) {
      nodes.add(new StandardRepresenter(settings).represent(o));
    }
    run.kept.write(out, nodes, run.notes);
    StringBuilder sb = new StringBuilder();
    for (String note : run.notes) {
      for (String line : note.split("\n")) {
        sb.append("# ").append(line).append('\n');
      }
    }
    Dump dump = new Dump(settings);
    for (int i = 0; i < nodes.size(); i++) {
      if (i > 0) {
        sb.append("---\n");
      }
      Writer writer = new Writer();
      dump.dumpNode(nodes.get(i), writer);
      sb.append(writer);
    }
    return new Result(sb.toString(), List.copyOf(run.notes), run.count, List.copyOf(run.leftOut));
  }

  private static final class Writer extends java.io.StringWriter implements StreamDataWriter {}

  /**
   * Migrates as {@link #migrate} does, written as one JSON object: the only object, or a v1 List of them all.
   * JSON has no comments, so the notes are only in the result's notes.
   */
  public static Result migrateJson(String text) throws BadInput {
    Run run = new Run();
    List<Object> out = objects(text, run);
    Map<Object, Object> list = new LinkedHashMap<>();
    list.put("apiVersion", "v1");
    list.put("kind", "List");
    list.put("items", out);
    Object json = out.size() == 1 ? out.get(0) : list;
    try {
      return new Result(JSON.writeValueAsString(json) + "\n", List.copyOf(run.notes), run.count,
          List.copyOf(run.leftOut));
    } catch (JsonProcessingException e) {
      // YAML allows keys JSON has not, such as null.
      throw new BadInput("cannot be written as JSON: " + e.getOriginalMessage());
    }
  }

  private static List<Object> objects(String text, Run run) throws BadInput {
    // Composed first, with comments, then built into objects, so that each comment is known by its object.
    LoadSettings settings = LoadSettings.builder().setParseComments(true).build();
    List<Node> nodes = new ArrayList<>();
    List<Object> docs = new ArrayList<>();
    try {
      new Compose(settings).composeAllFromString(text).forEach(nodes::add);
      for (Node node : nodes) {
        // A document of comments only has no object; its comments are kept all the same.
        docs.add(node.getTag().equals(Tag.COMMENT) ? null
            : new StandardConstructor(settings).constructSingleDocument(java.util.Optional.of(node)));
      }
    } catch (MarkedYamlEngineException e) {
      throw new BadInput("line " + (e.getProblemMark().map(m -> m.getLine() + 1).orElse(0)) + ": "
          + e.getProblem());
    } catch (YamlEngineException e) {
      throw new BadInput(e.getMessage());
    }
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < docs.size(); i++) {
      acyclic(docs.get(i), java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>()));
      run.kept.read(nodes.get(i), docs.get(i));
      out.addAll(migrateObject(docs.get(i), run));
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
  private static List<Object> migrateObject(Object o, Run run) {
    if (!(o instanceof Map<?, ?> m)) {
      return o == null ? List.of() : List.of(o);
    }
    Object kind = m.get("kind");
    if ("DeploymentConfig".equals(kind)) {
      run.count++;
      return deploymentConfig(m, run);
    }
    String items = "List".equals(kind) ? "items" : "Template".equals(kind) ? "objects" : null;
    if (items != null && m.get(items) instanceof List<?> list) {
      Map<Object, Object> copy = new LinkedHashMap<>(m);
      run.kept.moveAll(m, copy);
      List<Object> migrated = new ArrayList<>();
      for (Object item : list) {
        migrated.addAll(migrateObject(item, run));
      }
      copy.put(items, migrated);
      return List.of(copy);
    }
    return List.of(o);
  }

  /** The strategy's fields that shape OpenShift's deployer pod, which a Deployment does not have. */
  private static void deployerPod(String name, Map<?, ?> strategy, Run run) {
    if ("Custom".equals(strategy.get("type")) || strategy.containsKey("customParams")) {
      run.kept.toNote(strategy, strategy.containsKey("customParams") ? "customParams" : "type", run.note(name
          + ": the Custom strategy runs its own deployer image, which a Deployment cannot; it became RollingUpdate."));
    }
    for (String key : List.of("resources", "labels", "annotations", "activeDeadlineSeconds")) {
      if (strategy.containsKey(key)) {
        run.kept.toNote(strategy, key, run.note(name + ": strategy." + key + " applies to OpenShift's deployer pod,"
            + " which a Deployment does not have; dropped."));
      }
    }
  }

  private static List<Object> deploymentConfig(Map<?, ?> dc, Run run) {
    KeptComments kept = run.kept;
    Map<?, ?> meta = map(dc.get("metadata"));
    // Notes and Job names need a name; a DC without one still migrates.
    String name = meta.get("name") == null ? "deploymentconfig" : String.valueOf(meta.get("name"));
    Map<?, ?> spec = map(dc.get("spec"));
    Map<?, ?> template = map(spec.get("template"));
    Map<Object, Object> dspec = new LinkedHashMap<>();
    // Fields a Deployment has with the same meaning and default.
    for (String key : SAME_FIELDS) {
      if (spec.containsKey(key)) {
        dspec.put(key, spec.get(key));
      }
    }
    Object selector = spec.get("selector");
    if (selector == null) {
      // A DC without a selector selects its template's labels; a Deployment must say so. A copy, so that the
      // labels' comments stay on the labels.
      selector = new LinkedHashMap<>(map(map(template.get("metadata")).get("labels")));
    }
    dspec.put("selector", Map.of("matchLabels", map(selector)));
    Map<?, ?> strategy = map(spec.get("strategy"));
    boolean recreate = "Recreate".equals(strategy.get("type"));
    String paramsKey = recreate ? "recreateParams" : "rollingParams";
    Map<?, ?> params = map(strategy.get(paramsKey));
    Map<Object, Object> dstrategy = new LinkedHashMap<>();
    dstrategy.put("type", recreate ? "Recreate" : "RollingUpdate");
    if (!recreate) {
      Map<Object, Object> rolling = new LinkedHashMap<>();
      for (String key : List.of("maxSurge", "maxUnavailable")) {
        if (params.containsKey(key)) {
          rolling.put(key, params.get(key));
          kept.move(params, key, rolling, key);
        }
      }
      if (!rolling.isEmpty()) {
        dstrategy.put("rollingUpdate", rolling);
      }
    }
    for (String key : List.of("intervalSeconds", "updatePeriodSeconds", "timeoutSeconds")) {
      if (params.containsKey(key)) {
        kept.toNote(params, key, run.note(name + ": " + paramsKey + "." + key + " has no Deployment field; see"
            + " progressDeadlineSeconds."));
      }
    }
    deployerPod(name, strategy, run);
    if (spec.containsKey("test")) {
      kept.toNote(spec, "test", run.note(name + ": spec.test has no Deployment field: a test DC scales to 0 once"
          + " its rollout ends, which a Deployment never does; scale it down yourself, or run the check as a"
          + " Helm test hook."));
    }
    dspec.put("strategy", dstrategy);
    dspec.put("template", template);
    triggers(name, spec, run);
    Map<Object, Object> deployment = new LinkedHashMap<>();
    deployment.put("apiVersion", "apps/v1");
    deployment.put("kind", "Deployment");
    deployment.put("metadata", meta);
    deployment.put("spec", dspec);
    for (Object key : List.of("apiVersion", "kind", "metadata", "spec", KeptComments.END)) {
      kept.move(dc, key, deployment, key);
    }
    for (String key : dspec.keySet().stream().map(String::valueOf).toList()) {
      kept.move(spec, key, dspec, key);
    }
    kept.move(strategy, "type", dstrategy, "type");
    List<Object> result = new ArrayList<>();
    result.add(deployment);
    // Both strategies' hooks count: a DC of one type may carry the other's params left from an edit.
    for (String key : List.of("rollingParams", "recreateParams")) {
      Map<?, ?> p = map(strategy.get(key));
      for (String phase : List.of("pre", "mid", "post")) {
        if (p.get(phase) == null) {
          continue;
        }
        if (!(p.get(phase) instanceof Map<?, ?> hook)) {
          kept.toNote(p, phase, run.note(name + ": the " + phase + " hook is not a mapping and was not migrated."));
          continue;
        }
        if ("mid".equals(phase)) {
          kept.toNote(p, phase, run.note(name + ": the mid hook has no equivalent: a Deployment has no moment when"
              + " the old pods are gone and the new ones not yet started. Run it as part of a pre hook or drop it."));
          continue;
        }
        hookJob(name, phase, p, hook, map(template.get("spec")), run).ifPresent(result::add);
      }
    }
    // What is left on the params, such as their own key's comments, goes with the strategy.
    kept.rest(strategy, paramsKey, dstrategy, "type");
    return result;
  }

  private static void triggers(String name, Map<?, ?> spec, Run run) {
    if (!(spec.get("triggers") instanceof List<?> list)) {
      return;
    }
    int first = -1;
    for (int i = 0; i < list.size(); i++) {
      Object type = map(list.get(i)).get("type");
      int note = -1;
      if ("ImageChange".equals(type)) {
        note = run.note(name + ": the ImageChange trigger is gone: reference images by digest or tag in the"
            + " template, or let an image policy (the image.openshift.io/triggers annotation or an image updater)"
            + " roll it out.");
      } else if ("ConfigChange".equals(type)) {
        note = run.note(name + ": the ConfigChange trigger is what a Deployment always does: a template change"
            + " rolls out.");
      }
      if (note >= 0) {
        run.kept.toNote(list, i, note);
        first = first < 0 ? note : first;
      }
    }
    if (first >= 0) {
      run.kept.toNote(spec, "triggers", first);
    }
  }

  private static java.util.Optional<Object> hookJob(String name, String phase, Map<?, ?> params, Map<?, ?> hook,
      Map<?, ?> podSpec, Run run) {
    KeptComments kept = run.kept;
    Map<?, ?> exec = map(hook.get("execNewPod"));
    if (exec.isEmpty()) {
      kept.toNote(params, phase, run.note(name + ": the " + phase + " hook has no execNewPod and was not migrated"
          + " (tagImages has no equivalent)."));
      return java.util.Optional.empty();
    }
    Object containerName = exec.get("containerName");
    Map<?, ?> source = Map.of();
    List<String> names = new ArrayList<>();
    if (podSpec.get("containers") instanceof List<?> containers) {
      for (Object c : containers) {
        if (map(c).get("name") != null) {
          names.add(String.valueOf(map(c).get("name")));
        }
        if (map(c).get("name") != null && map(c).get("name").equals(containerName)) {
          source = map(c);
        }
      }
    }
    if (source.isEmpty()) {
      // A Job without an image is refused by the API: the hook stays a note to act on, as HL307 words it.
      boolean init = podSpec.get("initContainers") instanceof List<?> inits
          && inits.stream().anyMatch(c -> containerName != null && containerName.equals(map(c).get("name")));
      String missing = (init ? "\"" + containerName + "\" is an init container, and a hook takes only a regular"
          + " one" : "no container named \"" + containerName + "\" in the template") + " (containers: "
          + String.join(", ", names) + ")";
      kept.toNote(params, phase, run.note(name + ": TODO: the " + phase + " hook was not migrated: " + missing
          + ". Set its containerName to one of them and migrate again, or write its Job by hand; it runs "
          + flow(exec.get("command")) + "."));
      run.leftOut.add(name + " " + phase + " hook: " + missing);
      return java.util.Optional.empty();
    }
    Map<Object, Object> container = new LinkedHashMap<>();
    container.put("name", containerName);
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
      List<Object> chosen = new ArrayList<>();
      for (Object v : volumes) {
        if (wanted.contains(map(v).get("name"))) {
          chosen.add(v);
        }
      }
      jobPod.put("volumes", chosen);
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
        run.note(name + ": " + phase + " hook failurePolicy Retry became backoffLimit 6: a DC retries without"
            + " end, a Job gives up and fails the release after six tries.");
      }
      case "Ignore" -> {
        backoff = 0;
        delete = "before-hook-creation,hook-succeeded,hook-failed";
        run.note(name + ": " + phase + " hook failurePolicy Ignore has no Helm equivalent: a failed hook Job"
            + " fails the release. Make the command exit 0 on failure if the release must go on.");
      }
      default -> {
        backoff = 0;
        // A failed Job stays for its logs; the next release deletes it before creating its own.
        delete = "before-hook-creation,hook-succeeded";
        run.note(name + ": " + phase + " hook failurePolicy " + policy + " became backoffLimit 0: a failed"
            + " Job fails the release and stays for its logs until the next release.");
      }
    }
    String when = "pre".equals(phase) ? "pre-install,pre-upgrade" : "post-install,post-upgrade";
    if ("pre".equals(phase)) {
      run.note(name + ": the pre hook became a Helm hook Job, not an init container: a DC pre hook runs once"
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
    // The hook's comments go with what the Job makes of each field; the rest, and the hook's own, lead the Job.
    kept.move(hook, "failurePolicy", jspec, "backoffLimit");
    kept.move(hook, "execNewPod", jobPod, "containers");
    kept.move(exec, "containerName", container, "name");
    kept.move(exec, "command", container, "command");
    kept.move(exec, "env", container, env.isEmpty() ? "name" : "env");
    kept.move(exec, "volumes", jobPod, jobPod.containsKey("volumes") ? "volumes" : "containers");
    kept.rest(params, phase, job, "apiVersion");
    return java.util.Optional.of(job);
  }

  /** A value as one line that YAML reads back: JSON, or as it is when JSON cannot hold it. */
  private static String flow(Object value) {
    try {
      return FLOW.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      return String.valueOf(value);
    }
  }

  private static Map<?, ?> map(Object o) {
    return o instanceof Map<?, ?> m ? m : Map.of();
  }
}
