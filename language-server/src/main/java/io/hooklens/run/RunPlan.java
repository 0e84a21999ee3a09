package io.hooklens.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.LifecycleHandler;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.hooklens.core.model.Handler;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.PodSpec;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.Termination;
import io.hooklens.core.text.Printable;
import io.hooklens.core.yaml.JsonTree;
import io.hooklens.core.yaml.Range;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * What {@code hooklens run} will do, before it does anything: one pod per pod template with selected
 * hooks, built from the template's spec and metadata, with what each container and hook will run. A plan
 * with problems must not run.
 */
public final class RunPlan {
  private static final Pattern SAFE_WORD = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");
  private static final int MAX_NAME = 63;

  private final String source;
  private final List<PodPlan> pods;
  private final List<String> problems;
  private final Function<Range, Origin> origins;

  private RunPlan(String source, List<PodPlan> pods, List<String> problems, Function<Range, Origin> origins) {
    this.source = source;
    this.pods = List.copyOf(pods);
    this.problems = List.copyOf(problems);
    this.origins = origins;
  }

  private RunPlan(String source, List<PodPlan> pods, List<String> problems) {
    this(source, pods, problems, null);
  }

  /** The same plan for a rendered chart: {@code origins} says where a rendered place comes from in it. */
  public RunPlan withOrigins(Function<Range, Origin> value) {
    return new RunPlan(source, pods, problems, value);
  }

  /** Where a rendered place comes from, or null for the run's own file. */
  public Origin origin(Range range) {
    return origins == null ? null : origins.apply(range);
  }

  /** The file the plan was made from, as its name was given. */
  public String source() {
    return source;
  }

  public List<PodPlan> pods() {
    return pods;
  }

  /** Why the plan cannot run; empty when it can. */
  public List<String> problems() {
    return problems;
  }

  /** Plans the selected hooks of a manifest. */
  public static RunPlan of(HookDocument doc, Selection selection) {
    return of(doc, selection, Images.NONE);
  }

  /** Plans the selected hooks of a manifest, with images that give containers without command an entrypoint. */
  public static RunPlan of(HookDocument doc, Selection selection, Images images) {
    List<String> problems = new ArrayList<>();
    if (doc.parsed().templated()) {
      problems.add(doc.name() + " is a chart template: its values are known only once Helm renders it; run the "
          + "output of helm template instead");
      return new RunPlan(doc.name(), List.of(), problems);
    }
    List<PodPlan> pods = new ArrayList<>();
    Set<String> names = new HashSet<>();
    Set<String> withHooks = new LinkedHashSet<>();
    boolean resourceSeen = false;
    boolean containerSeen = false;
    for (PodSpec spec : doc.podSpecs()) {
      Resource owner = spec.owner();
      List<Handler> handlers = doc.handlers().stream()
          .filter(h -> h.pod() == spec && h.container().kind() == io.hooklens.core.model.Container.Kind.REGULAR)
          .toList();
      if (handlers.isEmpty()) {
        continue;
      }
      withHooks.add(owner.displayName());
      if (selection.resource() != null && !matches(owner, selection.resource())
          || selection.document() >= 0 && owner.document() != selection.document()) {
        continue;
      }
      resourceSeen = true;
      if (selection.container() != null) {
        if (handlers.stream().noneMatch(h -> selection.container().equals(h.container().name()))
            && doc.containers().stream().noneMatch(c -> c.pod() == spec && selection.container().equals(c.name()))) {
          continue;
        }
        containerSeen = true;
        handlers = handlers.stream().filter(h -> selection.container().equals(h.container().name())).toList();
      }
      List<Handler> selected = handlers.stream().filter(h -> selection.wants(h.hook().field())).toList();
      if (selected.isEmpty()) {
        continue;
      }
      pods.add(podPlan(doc, spec, selected, selection, names, problems, images));
    }
    if (withHooks.isEmpty()) {
      problems.add(doc.name() + " has no postStart or preStop hook in a pod template's containers");
    } else if (!resourceSeen) {
      problems.add("no object " + selection.resource() + " with hooks in " + doc.name() + "; objects with hooks: "
          + String.join(", ", withHooks));
    } else if (selection.container() != null && !containerSeen) {
      problems.add("no container \"" + selection.container() + "\" in the pods of " + doc.name()
          + (selection.resource() == null ? "" : " (" + selection.resource() + ")"));
    } else if (pods.isEmpty()) {
      problems.add("no " + selection.hook() + " hook in the selected containers of " + doc.name());
    }
    return new RunPlan(doc.name(), pods, problems);
  }

  private static boolean matches(Resource r, String wanted) {
    int slash = wanted.indexOf('/');
    if (slash < 0) {
      return wanted.equals(r.name());
    }
    return wanted.substring(0, slash).equalsIgnoreCase(String.valueOf(r.kind()))
        && wanted.substring(slash + 1).equals(r.name());
  }

  private static PodPlan podPlan(HookDocument doc, PodSpec spec, List<Handler> selected, Selection selection,
      Set<String> names, List<String> problems, Images images) {
    Resource owner = spec.owner();
    List<String> notes = new ArrayList<>();
    ObjectNode specJson = (ObjectNode) JsonTree.of(spec.node());
    keepContainers(specJson, selected, selection, notes);
    if (specJson.remove("ephemeralContainers") != null) {
      notes.add("ephemeralContainers are left out: they exist only for debugging a running pod");
    }
    // A real cluster would refuse the pod in a fresh namespace, or pin it to a node that may not exist.
    for (String field : List.of("nodeName", "serviceAccountName", "serviceAccount")) {
      if (specJson.remove(field) != null) {
        notes.add("spec." + field + " is left out");
      }
    }
    if (selection.graceSeconds() != null) {
      specJson.put("terminationGracePeriodSeconds", selection.graceSeconds());
      notes.add("grace period set to " + selection.graceSeconds() + " s by --grace-period");
    }
    String name = uniqueName(podName(owner), names);
    ObjectNode podJson = specJson.objectNode();
    podJson.put("apiVersion", "v1");
    podJson.put("kind", "Pod");
    ObjectNode metadata = podJson.putObject("metadata");
    metadata.put("name", name);
    YNode parent = spec.node().parent();
    YMap templateMeta = parent instanceof YMap m ? m.map("metadata") : null;
    if (templateMeta != null) {
      for (String field : List.of("labels", "annotations")) {
        JsonNode values = templateMeta.get(field) == null ? null : JsonTree.of(templateMeta.get(field));
        if (values != null && values.isObject()) {
          ObjectNode strings = metadata.putObject(field);
          values.fields().forEachRemaining(e -> {
            if (e.getValue().isValueNode() && !e.getValue().isNull()) {
              strings.put(e.getKey(), e.getValue().asText());
            }
          });
        }
      }
    }
    podJson.set("spec", specJson);
    Pod pod;
    try {
      pod = Serialization.jsonMapper().treeToValue(podJson, Pod.class);
    } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException e) {
      problems.add(owner.displayName() + ": the pod template cannot be read as a pod: " + firstLine(e.getMessage()));
      return new PodPlan(owner, name, 0, List.of(), notes, null);
    }
    long grace = pod.getSpec().getTerminationGracePeriodSeconds() == null ? Termination.DEFAULT_GRACE_SECONDS
        : Math.max(0, pod.getSpec().getTerminationGracePeriodSeconds());
    // Init containers run first, as the kubelet runs them; they are described, not reported on.
    for (Container c : pod.getSpec().getInitContainers() == null ? List.<Container>of()
        : pod.getSpec().getInitContainers()) {
      List<String> argv = images.argv(c.getImage(), c.getCommand(), c.getArgs());
      if (argv.isEmpty()) {
        problems.add(noCommand(owner.displayName(), c));
      }
      notes.addAll(leftOut(c, images));
      notes.add(("Always".equals(c.getRestartPolicy()) ? "sidecar \"" + c.getName() + "\" starts first and runs beside "
          + "the app (its hooks run too, unreported): " : "init container \"" + c.getName() + "\" runs first, to "
          + "completion: ") + shell(argv));
    }
    List<ContainerPlan> containers = new ArrayList<>();
    for (Container c : pod.getSpec().getContainers()) {
      List<PlannedHook> hooks = new ArrayList<>();
      for (Handler h : selected) {
        if (c.getName() != null && c.getName().equals(h.container().name())) {
          LifecycleHandler handler = h.hook() == io.hooklens.core.model.Hook.POST_START
              ? c.getLifecycle().getPostStart() : c.getLifecycle().getPreStop();
          hooks.add(new PlannedHook(c.getName(), h.hook().field(), describe(handler, c), handlerRange(h)));
        }
      }
      List<String> argv = images.argv(c.getImage(), c.getCommand(), c.getArgs());
      if (argv.isEmpty()) {
        problems.add(noCommand(owner.displayName(), c));
      }
      notes.addAll(leftOut(c, images));
      containers.add(new ContainerPlan(c.getName(), c.getImage(), argv, hooks));
    }
    return new PodPlan(owner, name, grace, containers, notes, pod);
  }

  /**
   * What of a container the node does not do as a cluster would, in the words the plan shows: an image it was
   * not given, a {@code lifecycle.stopSignal} (dropped as a default API server drops it), a probe sent to a host of
   * its own, and resource limits other than memory.
   */
  static List<String> leftOut(Container c, Images images) {
    List<String> out = new ArrayList<>();
    String who = "container \"" + c.getName() + "\": ";
    if (!images.has(c.getImage())) {
      out.add(who + "image " + c.getImage() + " is not given (--image, --image-root): its command runs on this "
          + "machine's files");
    }
    String stop = c.getLifecycle() == null ? null : c.getLifecycle().getStopSignal();
    String imageStop = images.stopSignal(c.getImage());
    if (stop != null && !stop.equals(imageStop)) {
      out.add(who + "lifecycle.stopSignal " + stop + " is dropped, as an API server without the ContainerStopSignals "
          + "feature gate (alpha, off by default) drops it: it is stopped with " + imageStop
          + (images.namesStopSignal(c.getImage()) ? ", its image's StopSignal" : ""));
    }
    toHost(out, who, "startupProbe", c.getStartupProbe());
    toHost(out, who, "readinessProbe", c.getReadinessProbe());
    toHost(out, who, "livenessProbe", c.getLivenessProbe());
    if (c.getResources() != null && c.getResources().getLimits() != null) {
      c.getResources().getLimits().keySet().stream().filter(k -> !"memory".equals(k)).sorted()
          .forEach(k -> out.add(who + "resources.limits." + k + " is not enforced"));
    }
    return out;
  }

  // Every kind of probe runs; one sent to a host of its own would leave the pod, which the node does not do.
  private static void toHost(List<String> out, String who, String field, Probe probe) {
    String host = probe == null ? null : probe.getHttpGet() != null ? probe.getHttpGet().getHost()
        : probe.getTcpSocket() != null ? probe.getTcpSocket().getHost() : null;
    if (host != null && !host.isEmpty()) {
      out.add(who + field + " to host " + host + " fails here: the embedded node probes only the pod itself");
    }
  }

  /** Why a container cannot run on the embedded node: nothing says what it runs. */
  static String noCommand(String owner, Container c) {
    return owner + ": container \"" + c.getName() + "\" has no command, and the entrypoint of " + c.getImage()
        + " is not known here, so it cannot run on this machine. Give the image (docker save " + c.getImage()
        + " -o image.tar, then --image " + c.getImage() + "=image.tar), add a command, or run it on a cluster "
        + "with --context";
  }

  /** Leaves out the containers not selected, and from the others the hooks not selected. */
  private static void keepContainers(ObjectNode specJson, List<Handler> selected, Selection selection,
      List<String> notes) {
    JsonNode list = specJson.get("containers");
    if (!(list instanceof ArrayNode containers)) {
      return;
    }
    List<String> left = new ArrayList<>();
    for (int i = containers.size() - 1; i >= 0; i--) {
      JsonNode c = containers.get(i);
      String name = c.path("name").asText(null);
      if (selection.container() != null && !selection.container().equals(name)) {
        left.add(0, name);
        containers.remove(i);
        continue;
      }
      if (c.get("lifecycle") instanceof ObjectNode lifecycle) {
        for (String hook : List.of("postStart", "preStop")) {
          boolean keep = selected.stream().anyMatch(h -> h.hook().field().equals(hook)
              && name != null && name.equals(h.container().name()));
          if (!keep && lifecycle.remove(hook) != null) {
            notes.add(hook + " of container \"" + name + "\" is not run (--hook " + selection.hook() + ")");
          }
        }
      }
    }
    if (!left.isEmpty()) {
      notes.add("containers left out (--container " + selection.container() + "): " + String.join(", ", left));
    }
  }

  private static Range handlerRange(Handler h) {
    return h.value() == null ? h.key().range() : new Range(h.key().range().start(), h.value().range().end());
  }

  private static String podName(Resource owner) {
    String base = owner.name() == null ? "hooklens" : owner.name();
    if (!"Pod".equals(owner.kind())) {
      base = base + "-" + String.valueOf(owner.kind()).toLowerCase(Locale.ROOT);
    }
    String name = base.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-").replaceAll("^-+|-+$", "");
    if (name.isEmpty()) {
      name = "hooklens";
    }
    return name.length() > MAX_NAME - 4 ? name.substring(0, MAX_NAME - 4) : name;
  }

  private static String uniqueName(String base, Set<String> names) {
    String name = base;
    for (int n = 2; !names.add(name); n++) {
      name = base + "-" + n;
    }
    return name;
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "invalid";
    }
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }

  /** What a handler does, as a user would read it before agreeing to run it. */
  static String describe(LifecycleHandler handler, Container container) {
    if (handler == null) {
      return "no action";
    }
    if (handler.getExec() != null) {
      List<String> command = handler.getExec().getCommand();
      return command == null || command.isEmpty() ? "exec with no command (fails)" : "exec " + shell(command);
    }
    if (handler.getHttpGet() != null) {
      var get = handler.getHttpGet();
      if (get.getHost() != null && !get.getHost().isEmpty()) {
        return "httpGet to host " + get.getHost() + " (refused: the embedded node sends requests only into the pod)";
      }
      String port = get.getPort() == null ? "?" : get.getPort().getIntVal() != null
          ? String.valueOf(get.getPort().getIntVal()) : namedPort(get.getPort().getStrVal(), container);
      String path = get.getPath() == null || get.getPath().isEmpty() ? "/" : get.getPath();
      return "httpGet GET http://<pod IP>:" + port + path + " (to the pod's own IP, as the kubelet sends it)";
    }
    if (handler.getSleep() != null) {
      return "sleep " + handler.getSleep().getSeconds() + " s (waits, runs nothing)";
    }
    if (handler.getTcpSocket() != null) {
      return "tcpSocket (the kubelet cannot run it: fails, runs nothing)";
    }
    return "no action (fails)";
  }

  private static String namedPort(String name, Container container) {
    for (ContainerPort p : container.getPorts() == null ? List.<ContainerPort>of() : container.getPorts()) {
      if (name.equals(p.getName())) {
        return p.getContainerPort() + " (" + name + ")";
      }
    }
    return name + " (not a port of the container: fails)";
  }

  /**
   * A command line as a shell would take it back, on one line: words quoted only where needed, and a word
   * with a tab or anything {@link Printable} escapes (line breaks, other control characters, characters that
   * reorder a line) in bash's {@code $'...'} form, whose escapes are those of {@link Printable}.
   */
  public static String shell(List<String> argv) {
    List<String> words = new ArrayList<>();
    for (String word : argv) {
      if (SAFE_WORD.matcher(word).matches()) {
        words.add(word);
      } else if (word.codePoints().anyMatch(c -> c == '\t' || Printable.escape(c) != null)) {
        words.add(ansiC(word));
      } else {
        words.add("'" + word.replace("'", "'\\''") + "'");
      }
    }
    return String.join(" ", words);
  }

  private static String ansiC(String word) {
    StringBuilder s = new StringBuilder("$'");
    word.codePoints().forEach(c -> {
      String escaped = Printable.escape(c);
      switch (c) {
        case '\t' -> s.append("\\t");
        case '\\' -> s.append("\\\\");
        case '\'' -> s.append("\\'");
        default -> {
          if (escaped == null) {
            s.appendCodePoint(c);
          } else {
            s.append(escaped);
          }
        }
      }
    });
    return s.append('\'').toString();
  }
}
