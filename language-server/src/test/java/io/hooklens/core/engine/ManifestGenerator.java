package io.hooklens.core.engine;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Writes Kubernetes, Helm and OpenShift manifests from a fuzzer's choices: which kinds, hooks, handlers,
 * annotations and values, and how they are written (block or flow, quotes, anchors, aliases and merge keys,
 * comments, suppressions, template actions, CRLF, JSON). Random bytes seldom get past a YAML reader into the
 * rules; a text built from choices reaches every rule, and every choice is still the fuzzer's to mutate.
 */
final class ManifestGenerator {
  /** A text to lint and the file name it goes by, which decides JSON. */
  record Manifest(String name, String text) {}

  private sealed interface Node permits Scalar, MapNode, SeqNode {}

  private record Scalar(String value) implements Node {}

  private record Entry(String key, Node value) {}

  private record MapNode(List<Entry> entries) implements Node {}

  private record SeqNode(List<Node> items) implements Node {}

  private static final String[] KINDS = {"Pod", "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job",
      "CronJob", "DeploymentConfig", "List", "Template", "Rollout", "Widget"};
  private static final String[] EVENTS = {"pre-install", "post-install", "pre-upgrade", "post-upgrade",
      "pre-delete", "post-delete", "pre-rollback", "post-rollback", "test", "test-success", "test-failure",
      "pre-instal", "crd-install", "PreSync", "Sync", "pre-install,post-install", "pre-install, pre-upgrade", ""};
  private static final String[] DELETE_POLICIES = {"before-hook-creation", "hook-succeeded", "hook-failed",
      "before-hook-creation,hook-succeeded", "hook-succeded", "BeforeHookCreation", ""};
  private static final String[] ANNOTATIONS = {"helm.sh/hook", "helm.sh/hook-weight", "helm.sh/hook-delete-policy",
      "helm.sh/hook-timeout", "helm.sh/resource-policy", "argocd.argoproj.io/hook",
      "argocd.argoproj.io/hook-delete-policy", "argocd.argoproj.io/sync-wave", "hooklens.io/ignore-HL105",
      "hooklens.io/ignore-HL2xx", "hooklens.io/ignore", "helm.sh/hooks"};
  private static final String[] WORDS = {"web", "app", "db-migrate", "Web", "x", "pre-stop", "main", "sidecar",
      "http", "metrics", "HTTP", "8080", "a b", "r\u00e9sum\u00e9", "\uD83D\uDE80", "web\u001b[2J", "::error::x",
      "\u0287", "-", "?", ":", "#", "&a", "*a", "|", ">", "'", "\""};
  private static final String[] NUMBERS = {"0", "1", "5", "-1", "30", "29", "31", "3600", "1e3", "0x1F", "0o17",
      "1.5", "2.0", "99999999999999999999", "+5", "-0", "1_000", ".inf", "\"30\"", "'5'", "thirty", "null", "~",
      "true", "yes"};
  private static final String[] COMMANDS = {"sh", "/bin/sh", "-c", "sleep 5", "sleep 40", "sleep infinity",
      "nginx -s quit", "kill -TERM 1", "curl -s localhost:8080/drain", "sleep 5 && exit 1", "while true; do :; done",
      "wget -qO- http://127.0.0.1/drain", "exit 0", "timeout 10 sleep 20", ""};
  private static final String[] TEMPLATES = {"{{ .Values.x }}", "{{ include \"a.name\" . }}", "${PARAM}",
      "{{ .Values.port | quote }}", "{{- toYaml .Values.r | nindent 8 }}", "{{", "}}"};
  private static final String[] INSERTS = {"\n", "\r\n", "\r", "---\n", "...\n", "%YAML 1.2\n", "- ", ": ", "\"", "'",
      "[", "{", "}", "]", ",", "&a ", "*a", "<<: *a\n", "  ", "\t", "# hooklens:ignore HL105 why\n", "|\n", "? ",
      "!!str ", "!foo ", "\uD83D\uDE80", "\uFEFF", "{{ end }}", "{{- if .Values.a }}\n", "\u2028"};

  /** Plain scalars that read as the same string in YAML. */
  private static final Pattern PLAIN = Pattern.compile("[\\w./][\\w ./-]*");

  private final FuzzedDataProvider data;
  private final boolean json;
  /** Whether the file is a chart template: its values and conditions may be template actions. */
  private final boolean templated;
  private final String nl;
  private final StringBuilder out = new StringBuilder();
  private int anchors;
  /** Nodes left to build, so that no choice can make a text without end. */
  private int budget = 300;

  private ManifestGenerator(FuzzedDataProvider data) {
    this.data = data;
    this.json = data.consumeInt(0, 7) == 0;
    this.templated = !json && data.consumeInt(0, 4) == 0;
    this.nl = data.consumeInt(0, 5) == 0 ? "\r\n" : "\n";
  }

  static Manifest generate(FuzzedDataProvider data) {
    ManifestGenerator g = new ManifestGenerator(data);
    return new Manifest(g.json ? "input.json" : "input.yaml", g.write());
  }

  private String write() {
    if (data.consumeInt(0, 15) == 0) {
      out.append('\uFEFF');
    }
    int documents = json ? 1 : data.consumeInt(1, 4);
    for (int d = 0; d < documents; d++) {
      if (d > 0 || data.consumeInt(0, 5) == 0) {
        out.append("---").append(nl);
      }
      // Anchors belong to their document.
      anchors = 0;
      MapNode resource = resource(0);
      if (json) {
        flow(resource);
        out.append(nl);
      } else {
        block(resource, 0);
      }
    }
    String text = out.toString();
    // A few edits of the written text, for the broken neighbours of well-formed manifests.
    for (int i = data.consumeInt(-4, 3); i > 0; i--) {
      int at = data.consumeInt(0, text.length());
      text = text.substring(0, at) + data.pickValue(INSERTS) + text.substring(at);
    }
    return text;
  }

  private MapNode resource(int depth) {
    String kind = data.pickValue(KINDS);
    List<Entry> e = new ArrayList<>();
    e.add(new Entry("apiVersion", scalar(apiVersion(kind))));
    e.add(new Entry("kind", scalar(kind)));
    e.add(new Entry("metadata", metadata()));
    switch (kind) {
      case "Pod" -> e.add(new Entry("spec", podSpec()));
      case "CronJob" -> e.add(new Entry("spec", map(entry("schedule", scalar("*/5 * * * *")),
          entry("jobTemplate", map(entry("spec", template()))))));
      case "DeploymentConfig" -> e.add(new Entry("spec", deploymentConfigSpec()));
      case "List" -> e.add(new Entry("items", items(depth)));
      case "Template" -> {
        e.add(new Entry("objects", items(depth)));
        e.add(new Entry("parameters", new SeqNode(List.of(map(entry("name", scalar("PARAM")),
            entry("value", value(WORDS)))))));
      }
      case "Widget" -> e.add(new Entry("spec", map(entry(data.pickValue(WORDS), map(entry("template", template()))))));
      default -> e.add(new Entry("spec", template()));
    }
    shuffleSome(e);
    return new MapNode(e);
  }

  private static String apiVersion(String kind) {
    return switch (kind) {
      case "Pod", "List" -> "v1";
      case "Job" -> "batch/v1";
      case "CronJob" -> "batch/v1beta1";
      case "DeploymentConfig" -> "apps.openshift.io/v1";
      case "Template" -> "template.openshift.io/v1";
      case "Rollout" -> "argoproj.io/v1alpha1";
      case "Widget" -> "example.com/v1";
      default -> "apps/v1";
    };
  }

  private Node items(int depth) {
    List<Node> items = new ArrayList<>();
    for (int i = depth < 2 ? data.consumeInt(0, 3) : 0; i > 0 && budget > 0; i--) {
      items.add(resource(depth + 1));
    }
    return new SeqNode(items);
  }

  private Node metadata() {
    List<Entry> e = new ArrayList<>();
    e.add(new Entry("name", value(WORDS)));
    List<Entry> annotations = new ArrayList<>();
    for (int i = data.consumeInt(0, 4); i > 0; i--) {
      String key = data.pickValue(ANNOTATIONS);
      Node v = switch (key) {
        case "helm.sh/hook", "argocd.argoproj.io/hook" -> value(EVENTS);
        case "helm.sh/hook-delete-policy", "argocd.argoproj.io/hook-delete-policy" -> value(DELETE_POLICIES);
        case "helm.sh/hook-weight", "argocd.argoproj.io/sync-wave", "helm.sh/hook-timeout" -> value(NUMBERS);
        default -> value(WORDS);
      };
      annotations.add(new Entry(key, v));
    }
    if (!annotations.isEmpty()) {
      e.add(new Entry("annotations", new MapNode(annotations)));
    }
    return new MapNode(e);
  }

  private Node template() {
    List<Entry> e = new ArrayList<>();
    if (data.consumeBoolean()) {
      e.add(new Entry("backoffLimit", value(NUMBERS)));
    }
    e.add(new Entry("template", map(entry("metadata", metadata()), entry("spec", podSpec()))));
    return new MapNode(e);
  }

  private Node podSpec() {
    List<Entry> e = new ArrayList<>();
    if (data.consumeBoolean()) {
      e.add(new Entry("terminationGracePeriodSeconds", value(NUMBERS)));
    }
    if (data.consumeBoolean()) {
      e.add(new Entry("restartPolicy", value(new String[] {"Never", "OnFailure", "Always", "never"})));
    }
    e.add(new Entry("containers", containers(data.consumeInt(0, 3))));
    if (data.consumeInt(0, 3) == 0) {
      e.add(new Entry("initContainers", containers(data.consumeInt(0, 2))));
    }
    shuffleSome(e);
    return new MapNode(e);
  }

  private Node containers(int n) {
    List<Node> items = new ArrayList<>();
    for (int i = 0; i < n && budget > 0; i++) {
      items.add(container());
    }
    return new SeqNode(items);
  }

  private Node container() {
    List<Entry> e = new ArrayList<>();
    e.add(new Entry("name", value(WORDS)));
    e.add(new Entry("image", value(new String[] {"nginx", "busybox:1.36", "registry/app@sha256:0", ""})));
    if (data.consumeBoolean()) {
      e.add(new Entry("command", command()));
    }
    if (data.consumeBoolean()) {
      List<Node> ports = new ArrayList<>();
      for (int i = data.consumeInt(1, 2); i > 0; i--) {
        ports.add(map(entry("name", value(WORDS)), entry("containerPort", value(NUMBERS))));
      }
      e.add(new Entry("ports", new SeqNode(ports)));
    }
    if (data.consumeInt(0, 3) == 0) {
      e.add(new Entry("restartPolicy", scalar("Always")));
    }
    List<Entry> lifecycle = new ArrayList<>();
    for (String hook : new String[] {"postStart", "preStop"}) {
      if (data.consumeInt(0, 3) > 0) {
        lifecycle.add(new Entry(hook, handler()));
      }
    }
    if (!lifecycle.isEmpty() || data.consumeBoolean()) {
      e.add(new Entry("lifecycle", new MapNode(lifecycle)));
    }
    shuffleSome(e);
    return new MapNode(e);
  }

  private Node handler() {
    List<Entry> e = new ArrayList<>();
    int kinds = data.consumeInt(0, 9);
    if (kinds < 4 || kinds == 8) {
      e.add(new Entry("exec", map(entry("command", command()))));
    }
    if (kinds == 4 || kinds >= 8) {
      List<Entry> get = new ArrayList<>();
      get.add(new Entry("path", value(new String[] {"/drain", "/", "drain", "/a b"})));
      get.add(new Entry("port", value(data.consumeBoolean() ? NUMBERS : WORDS)));
      if (data.consumeBoolean()) {
        get.add(new Entry("scheme", value(new String[] {"HTTP", "HTTPS", "http", "tcp"})));
      }
      if (data.consumeInt(0, 3) == 0) {
        get.add(new Entry("host", value(WORDS)));
      }
      e.add(new Entry("httpGet", new MapNode(get)));
    }
    if (kinds == 5) {
      e.add(new Entry("tcpSocket", map(entry("port", value(NUMBERS)))));
    }
    if (kinds == 6 || kinds == 9) {
      e.add(new Entry("sleep", map(entry("seconds", value(NUMBERS)))));
    }
    return new MapNode(e);
  }

  private Node command() {
    List<Node> argv = new ArrayList<>();
    for (int i = data.consumeInt(0, 4); i > 0; i--) {
      argv.add(value(COMMANDS));
    }
    return new SeqNode(argv);
  }

  private Node deploymentConfigSpec() {
    String type = data.pickValue(new String[] {"Recreate", "Rolling", "Custom", "recreate"});
    List<Entry> params = new ArrayList<>();
    for (String phase : new String[] {"pre", "mid", "post"}) {
      if (data.consumeBoolean()) {
        params.add(new Entry(phase, dcHook()));
      }
    }
    if (data.consumeBoolean()) {
      params.add(new Entry("timeoutSeconds", value(NUMBERS)));
    }
    String paramsKey = data.consumeBoolean() ? "rollingParams" : "recreateParams";
    Node strategy = map(entry("type", scalar(type)), entry(paramsKey, new MapNode(params)));
    return map(entry("replicas", value(NUMBERS)), entry("strategy", strategy), entry("template",
        map(entry("metadata", metadata()), entry("spec", podSpec()))));
  }

  private Node dcHook() {
    List<Entry> e = new ArrayList<>();
    e.add(new Entry("failurePolicy", value(new String[] {"Abort", "Retry", "Ignore", "abort", ""})));
    if (data.consumeInt(0, 3) > 0) {
      e.add(new Entry("execNewPod", map(entry("containerName", value(WORDS)), entry("command", command()))));
    }
    if (data.consumeInt(0, 3) == 0) {
      e.add(new Entry("tagImages", new SeqNode(List.of(map(entry("containerName", value(WORDS)),
          entry("to", map(entry("kind", scalar("ImageStreamTag")), entry("name", value(WORDS)))))))));
    }
    shuffleSome(e);
    return new MapNode(e);
  }

  /** A value mostly from the vocabulary, sometimes a template action or any short string. */
  private Node value(String[] vocabulary) {
    return switch (data.consumeInt(0, 11)) {
      case 0 -> scalar(data.consumeString(16));
      case 1 -> scalar(templated ? data.pickValue(TEMPLATES) : data.pickValue(vocabulary));
      case 2 -> scalar(data.pickValue(NUMBERS));
      default -> scalar(data.pickValue(vocabulary));
    };
  }

  private Scalar scalar(String value) {
    budget--;
    return new Scalar(value);
  }

  private Entry entry(String key, Node value) {
    return new Entry(key, value);
  }

  private MapNode map(Entry... entries) {
    budget--;
    return new MapNode(List.of(entries));
  }

  /** Key order is the author's; rules must not depend on it. */
  private void shuffleSome(List<Entry> entries) {
    for (int i = entries.size() - 1; i > 0 && data.consumeInt(0, 3) == 0; i--) {
      int j = data.consumeInt(0, i);
      Entry t = entries.get(i);
      entries.set(i, entries.get(j));
      entries.set(j, t);
    }
  }

  /** Writes a mapping's entries at an indentation, each in block style unless the fuzzer asks for flow. */
  private void block(MapNode m, int indent) {
    String pad = " ".repeat(indent);
    if (anchors > 0 && data.consumeInt(0, 12) == 0) {
      out.append(pad).append("<<: *a").append(data.consumeInt(0, anchors - 1)).append(nl);
    }
    for (Entry e : m.entries()) {
      boolean conditional = templated && data.consumeInt(0, 7) == 0;
      if (conditional) {
        out.append(pad).append("{{- if .Values.").append(e.key().replaceAll("\\W", "")).append(" }}").append(nl);
      }
      if (data.consumeInt(0, 20) == 0) {
        out.append(pad).append("# hooklens:ignore ").append(data.pickValue(new String[] {"HL105", "HL2xx", "HL999",
            ""})).append(data.consumeBoolean() ? " because" : "").append(nl);
      }
      out.append(pad).append(key(e.key())).append(':');
      value(e.value(), indent);
      if (conditional) {
        out.append(pad).append("{{- end }}").append(nl);
      }
    }
    if (m.entries().isEmpty()) {
      out.append(pad).append("{}").append(nl);
    }
  }

  /** Writes what follows {@code key:} (or {@code -}): a scalar or a flow node on the line, else a block. */
  private void value(Node node, int indent) {
    String anchor = "";
    if (!(node instanceof Scalar) && data.consumeInt(0, 10) == 0) {
      anchor = " &a" + anchors++;
    } else if (anchors > 0 && data.consumeInt(0, 25) == 0) {
      out.append(" *a").append(data.consumeInt(0, anchors - 1)).append(nl);
      return;
    }
    if (node instanceof Scalar s) {
      out.append(' ');
      scalarText(s.value(), indent, true);
      out.append(nl);
    } else if (data.consumeInt(0, 5) == 0 || isEmpty(node)) {
      out.append(anchor).append(' ');
      flow(node);
      out.append(nl);
    } else if (node instanceof MapNode m) {
      out.append(anchor).append(nl);
      block(m, indent + 2);
    } else {
      out.append(anchor).append(nl);
      int itemIndent = data.consumeInt(0, 3) == 0 ? indent : indent + 2;
      for (Node item : ((SeqNode) node).items()) {
        out.append(" ".repeat(itemIndent)).append('-');
        if (item instanceof MapNode m && !m.entries().isEmpty() && data.consumeInt(0, 4) > 0) {
          // "- name: x" with the rest of the mapping under it.
          Entry first = m.entries().get(0);
          out.append(' ').append(key(first.key())).append(':');
          value(first.value(), itemIndent + 2);
          if (m.entries().size() > 1) {
            block(new MapNode(m.entries().subList(1, m.entries().size())), itemIndent + 2);
          }
        } else {
          value(item, itemIndent);
        }
      }
    }
  }

  private static boolean isEmpty(Node node) {
    return node instanceof MapNode m ? m.entries().isEmpty() : ((SeqNode) node).items().isEmpty();
  }

  private void flow(Node node) {
    if (node instanceof Scalar s) {
      if (json) {
        doubleQuoted(s.value());
      } else {
        scalarText(s.value(), 0, false);
      }
    } else if (node instanceof MapNode m) {
      out.append('{');
      for (int i = 0; i < m.entries().size(); i++) {
        out.append(i > 0 ? ", " : "");
        if (json) {
          doubleQuoted(m.entries().get(i).key());
        } else {
          out.append(key(m.entries().get(i).key()));
        }
        out.append(": ");
        flow(m.entries().get(i).value());
      }
      out.append('}');
    } else {
      List<Node> items = ((SeqNode) node).items();
      out.append('[');
      for (int i = 0; i < items.size(); i++) {
        out.append(i > 0 ? ", " : "");
        flow(items.get(i));
      }
      out.append(']');
    }
  }

  private String key(String key) {
    return switch (data.consumeInt(0, 7)) {
      case 0 -> "\"" + key + "\"";
      case 1 -> "'" + key + "'";
      default -> key;
    };
  }

  /**
   * A scalar in one of YAML's styles: plain, single or double quoted, or (where a block may stand) a literal
   * block.
   */
  private void scalarText(String value, int indent, boolean blockAllowed) {
    if (value.codePoints().anyMatch(ManifestGenerator::unprintable)) {
      // YAML refuses the whole stream for such a character written as it is; raw bytes are LintFuzzTest's.
      doubleQuoted(value);
      return;
    }
    switch (data.consumeInt(0, 6)) {
      case 0, 1 -> out.append('\'').append(value.replace("'", "''")).append('\'');
      case 2 -> doubleQuoted(value);
      case 3 -> {
        if (blockAllowed && !json) {
          String pad = " ".repeat(indent + 2);
          out.append('|').append(nl).append(pad).append(value.replace("\n", nl + pad));
          break;
        }
        doubleQuoted(value);
      }
      default -> {
        // Mostly well-formed: a value YAML would misread is quoted, unless the fuzzer insists.
        if (PLAIN.matcher(value).matches() || data.consumeInt(0, 7) == 0) {
          out.append(value);
        } else {
          doubleQuoted(value);
        }
      }
    }
  }

  /** What YAML does not allow unescaped in a stream (its printable set, less tab and line breaks). */
  private static boolean unprintable(int cp) {
    return cp < 0x20 || cp >= 0x7f && cp <= 0x9f || cp >= 0xd800 && cp <= 0xdfff || cp == 0xfffe || cp == 0xffff;
  }

  private void doubleQuoted(String value) {
    out.append('"');
    value.codePoints().forEach(cp -> {
      if (cp == '"' || cp == '\\') {
        out.append('\\').appendCodePoint(cp);
      } else if (unprintable(cp)) {
        out.append(String.format("\\u%04x", cp));
      } else {
        out.appendCodePoint(cp);
      }
    });
    out.append('"');
  }
}
