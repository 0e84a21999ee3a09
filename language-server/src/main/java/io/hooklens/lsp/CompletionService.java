package io.hooklens.lsp;

import io.hooklens.core.engine.Targets;
import io.hooklens.core.model.Container;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.helm.DeletePolicy;
import io.hooklens.core.model.helm.HelmAnnotations;
import io.hooklens.core.model.helm.HelmEvent;
import io.hooklens.core.model.helm.OutputLogPolicy;
import io.hooklens.core.model.openshift.DcHook;
import io.hooklens.core.model.openshift.DcPhase;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.core.yaml.YSeq;
import io.hooklens.core.yaml.YamlDocument;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.eclipse.lsp4j.ClientCapabilities;
import org.eclipse.lsp4j.CompletionItem;
import org.eclipse.lsp4j.CompletionItemCapabilities;
import org.eclipse.lsp4j.CompletionItemKind;
import org.eclipse.lsp4j.InsertTextFormat;
import org.eclipse.lsp4j.InsertTextMode;
import org.eclipse.lsp4j.MarkupContent;
import org.eclipse.lsp4j.MarkupKind;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.TextEdit;
import org.eclipse.lsp4j.jsonrpc.messages.Either;

/**
 * Completion where hooks are written, in addition to what a schema-driven YAML server offers: Helm hook
 * annotations and their values, lifecycle handler skeletons, an httpGet hook's ports, and the values of
 * DeploymentConfig hooks. Bare keys such as {@code exec} or {@code port}, which such a server completes
 * already, are never offered; every skeleton is labelled {@code (hooklens)}.
 *
 * <p>The context comes from the text around the cursor ({@link CursorContext}); facts from elsewhere in
 * the object (its kind, the container's ports, the template's volumes) come from a model: the one the
 * Analyzer keeps when it is of this very snapshot, else the cursor's YAML document read on its own with
 * the cursor's line left out (the line being typed is rarely valid yet), else the newest model of an older
 * snapshot. So a request reads at most one YAML document, and never throws on broken text.
 */
final class CompletionService {
  /** Labels of our items end with this, so users can tell them from a schema server's. */
  static final String MARK = " (hooklens)";
  private static final List<String> CONTAINER_LISTS = List.of("containers", "initContainers", "ephemeralContainers");
  private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+");
  private static final Pattern TABSTOP = Pattern.compile("\\$\\{\\d+:([^}]*)}");
  private static final Pattern CHOICE = Pattern.compile("\\$\\{\\d+\\|([^,|]*)[^}]*}");

  /** What the client can take: snippets, and text inserted as it is rather than re-indented. */
  record ClientSupport(boolean snippets, boolean asIs) {
    static ClientSupport of(ClientCapabilities caps) {
      CompletionItemCapabilities item = caps == null || caps.getTextDocument() == null
          || caps.getTextDocument().getCompletion() == null ? null
          : caps.getTextDocument().getCompletion().getCompletionItem();
      if (item == null) {
        return new ClientSupport(false, false);
      }
      boolean asIs = item.getInsertTextModeSupport() != null && item.getInsertTextModeSupport().getValueSet() != null
          && item.getInsertTextModeSupport().getValueSet().contains(InsertTextMode.AsIs);
      return new ClientSupport(Boolean.TRUE.equals(item.getSnippetSupport()), asIs);
    }
  }

  private final Analyzer analyzer;

  CompletionService(Analyzer analyzer) {
    this.analyzer = analyzer;
  }

  /** The completions at a position of a snapshot; empty where none apply. */
  List<CompletionItem> complete(TextDocument doc, Position pos, Targets targets, ClientSupport client) {
    boolean json = ManifestFiles.isJson(ManifestFiles.lintName(doc));
    CursorContext ctx = CursorContext.of(doc, pos, json);
    if (ctx == null || ctx.partial().contains("{{") || ctx.value().contains("{{")) {
      return List.of();
    }
    Request r = new Request(doc, ctx, targets, client);
    List<CompletionItem> out = new ArrayList<>();
    if (ctx.path().equals(List.of("metadata", "annotations"))) {
      helm(r, out);
    } else if (lifecycleContainer(ctx) >= 0) {
      lifecycle(r, out);
    } else if (dcPhase(ctx) >= 0) {
      deploymentConfig(r, out);
    }
    return out;
  }

  /** One request: its context and, read on first use, the model of the object around the cursor. */
  private final class Request {
    final TextDocument doc;
    final CursorContext ctx;
    final Targets targets;
    final ClientSupport client;
    private List<YNode> nodes;
    private HookDocument model;

    Request(TextDocument doc, CursorContext ctx, Targets targets, ClientSupport client) {
      this.doc = doc;
      this.ctx = ctx;
      this.targets = targets;
      this.client = client;
    }

    /** The model's nodes along the cursor's path, from the document root, as far as they exist. */
    List<YNode> nodes() {
      if (nodes == null) {
        locate();
      }
      return nodes;
    }

    /** The node at depth {@code i} of the path (0 is the document root), or null. */
    YNode node(int depth) {
      List<YNode> n = nodes();
      return depth < n.size() ? n.get(depth) : null;
    }

    /** The object around the cursor, or null when no model has it. */
    Resource resource() {
      List<YNode> n = nodes();
      return n.isEmpty() ? null : model.resourceOf(n.get(n.size() - 1));
    }

    Container container(int depth) {
      YNode node = node(depth);
      if (node == null) {
        return null;
      }
      for (Container c : model.containers()) {
        if (c.node() == node) {
          return c;
        }
      }
      return null;
    }

    private void locate() {
      Analyzer.Parsed cached = analyzer.cached(doc.uri());
      if (cached != null && cached.document() == doc && walk(cached.model(), ctx.line())) {
        return;
      }
      if (walk(analyzer.read(doc, documentWithoutCursorLine()), ctx.line() - ctx.documentStart())) {
        return;
      }
      if (cached == null || !walk(cached.model(), ctx.line())) {
        nodes = List.of();
      }
    }

    /**
     * The cursor's YAML document with the line being typed emptied (line numbers start at the document), or a
     * JSON text without what is being typed, which keeps the brackets around it.
     */
    private String documentWithoutCursorLine() {
      String t = doc.text();
      int start = doc.offsetAt(new Position(ctx.documentStart(), 0));
      int end = ctx.documentEnd() >= doc.lineCount() ? t.length() : doc.offsetAt(new Position(ctx.documentEnd(), 0));
      int lineStart = doc.offsetAt(new Position(ctx.line(), 0));
      int lineEnd = doc.offsetAt(new Position(ctx.line(), Integer.MAX_VALUE));
      if (ctx.json()) {
        return t.substring(start, lineStart + ctx.from()) + t.substring(Math.min(lineEnd, lineStart + ctx.to()), end);
      }
      return t.substring(start, lineStart) + t.substring(lineEnd, end);
    }

    /** Follows the path in the document of {@code m} that holds {@code line}; false when that reaches no object. */
    private boolean walk(HookDocument m, int line) {
      YNode root = null;
      for (YamlDocument d : m.parsed().documents()) {
        if (d.root() != null && d.range().start().line() <= line && line <= d.range().end().line()) {
          root = d.root();
        }
      }
      if (root == null) {
        return false;
      }
      List<YNode> found = new ArrayList<>();
      YNode n = root;
      found.add(n);
      for (Object step : ctx.path()) {
        n = step instanceof String k && n instanceof YMap map ? map.get(k)
            : step instanceof Integer i && n instanceof YSeq seq && i < seq.size() ? seq.get(i) : null;
        if (n == null) {
          break;
        }
        found.add(n);
      }
      if (m.resourceOf(found.get(found.size() - 1)) == null) {
        return false;
      }
      model = m;
      nodes = found;
      return true;
    }
  }

  // ---- Helm annotations ----

  private void helm(Request r, List<CompletionItem> out) {
    CursorContext ctx = r.ctx;
    if (ctx.kind() == CursorContext.Kind.KEY) {
      helmKeys(r, out);
      return;
    }
    if (ctx.kind() != CursorContext.Kind.VALUE) {
      return;
    }
    Set<String> listed = ctx.listed();
    switch (ctx.key()) {
      case HelmAnnotations.HOOK -> {
        // test-success, a deprecated alias (HL204), is not offered.
        for (String e : HelmEvent.NAMES) {
          if (!listed.contains(e)) {
            out.add(value(r, e, false, HookFacts.event(e), out.size()));
          }
        }
      }
      case HelmAnnotations.DELETE_POLICY -> {
        for (DeletePolicy p : DeletePolicy.values()) {
          if (!listed.contains(p.annotation())) {
            out.add(value(r, p.annotation(), false, HookFacts.deletePolicy(p), out.size()));
          }
        }
      }
      case HelmAnnotations.OUTPUT_LOG_POLICY -> {
        for (String p : new TreeSet<>(HelmAnnotations.OUTPUT_LOG_POLICIES)) {
          if (!listed.contains(p)) {
            out.add(value(r, p, false, "Helm prints the hook's logs when it " + (p.equals(OutputLogPolicy.HOOK_FAILED.annotation())
                ? "failed" : "succeeded"), out.size()));
          }
        }
      }
      case HelmAnnotations.RESOURCE_POLICY -> out.add(value(r, HelmAnnotations.KEEP, false,
          "helm uninstall and upgrades leave this resource in the cluster", 0));
      case HelmAnnotations.WEIGHT -> {
        String typed = ctx.partial().strip();
        String weight = INTEGER.matcher(typed).matches() ? typed : "0";
        out.add(value(r, weight, true, "Helm runs an event's hooks by weight, lower first, then by name;"
            + " annotations are strings, so the integer is quoted", 0));
      }
      default -> { }
    }
  }

  private void helmKeys(Request r, List<CompletionItem> out) {
    Set<String> present = r.ctx.siblings();
    String events = String.join(",", HelmEvent.NAMES);
    boolean hook = present.contains(HelmAnnotations.HOOK);
    addKey(r, out, HelmAnnotations.HOOK, "${1|" + events + "|}", false,
        "makes this resource a Helm hook: Helm creates it at the events listed, not with the release");
    if (hook) {
      addKey(r, out, HelmAnnotations.WEIGHT, "${1:0}", true,
          "the hook's place in its events: Helm runs lower weights first, then sorts by name");
      addKey(r, out, HelmAnnotations.DELETE_POLICY, "${1|" + String.join(",", DeletePolicy.SPELLINGS) + "|}",
          false, "when Helm deletes the hook object (before-hook-creation when none is given)");
      Resource res = r.resource();
      String kind = res == null ? null : res.kind();
      // Helm collects logs only from Jobs and Pods (HL217); Argo CD never prints them.
      if (("Job".equals(kind) || "Pod".equals(kind)) && !r.targets.argoCd()) {
        addKey(r, out, HelmAnnotations.OUTPUT_LOG_POLICY,
            "${1|" + String.join(",", new TreeSet<>(HelmAnnotations.OUTPUT_LOG_POLICIES)) + "|}", false,
            "when Helm prints the hook's logs (Helm 3.18 or later)");
      }
    }
    addKey(r, out, HelmAnnotations.RESOURCE_POLICY, HelmAnnotations.KEEP, false,
        "keep: helm uninstall and upgrades leave this resource in the cluster");
  }

  private void addKey(Request r, List<CompletionItem> out, String key, String valueSnippet, boolean quoteInYaml,
      String detail) {
    CursorContext ctx = r.ctx;
    if (ctx.siblings().contains(key)) {
      return;
    }
    boolean quoted = ctx.json() || quoteInYaml;
    String v = quoted ? "\"" + valueSnippet + "\"" : valueSnippet;
    String text = keyText(ctx, key) + v;
    out.add(item(r, key, text, true, CompletionItemKind.Property, detail, null, out.size(), null));
  }

  /** A key as typed in this file, with its colon. */
  private static String keyText(CursorContext ctx, String key) {
    if (ctx.json()) {
      return "\"" + key + "\": ";
    }
    return (ctx.replacesQuotes() ? ctx.quote() + key + ctx.quote() : key) + ": ";
  }

  /**
   * A value, quoted as this place needs: in the quotes the user opened, in JSON, or where YAML must read a
   * string ({@code quote}).
   */
  private CompletionItem value(Request r, String v, boolean quote, String detail, int order) {
    return item(r, v, valueText(r.ctx, v, quote), false, CompletionItemKind.Value, detail, null, order, null);
  }

  private static String valueText(CursorContext ctx, String v, boolean quote) {
    String text;
    if (ctx.replacesQuotes()) {
      text = ctx.quote() + v + ctx.quote();
    } else if (ctx.quote() != 0) {
      text = v;
    } else if (ctx.json() || quote) {
      text = "\"" + v + "\"";
    } else {
      text = v;
    }
    return (ctx.needsSpace() ? " " : "") + text;
  }

  // ---- Container lifecycle ----

  /** Depth of the container in the path when the cursor is under its {@code lifecycle}, else -1. */
  private static int lifecycleContainer(CursorContext ctx) {
    List<Object> p = ctx.path();
    int i = p.lastIndexOf("lifecycle");
    if (i < 2 || !(p.get(i - 1) instanceof Integer) || !CONTAINER_LISTS.contains(p.get(i - 2))) {
      return -1;
    }
    return i;
  }

  private void lifecycle(Request r, List<CompletionItem> out) {
    CursorContext ctx = r.ctx;
    int lifecycle = lifecycleContainer(ctx);
    List<Object> below = ctx.path().subList(lifecycle + 1, ctx.path().size());
    String list = (String) ctx.path().get(lifecycle - 2);
    // The node at path depth d is nodes[d]; the container map is at the depth of "lifecycle".
    Container c = r.container(lifecycle);
    boolean allowed = c != null ? c.kind() == Container.Kind.REGULAR || c.isSidecar() : list.equals("containers");
    if (!allowed) {
      return;
    }
    if (ctx.kind() == CursorContext.Kind.KEY && below.isEmpty()) {
      for (String hook : List.of("preStop", "postStart")) {
        if (!ctx.siblings().contains(hook)) {
          for (Skeleton s : skeletons(r, c, hook)) {
            String label = hook + ": " + s.label + MARK;
            out.add(item(r, label, block(ctx, hook, s), true, CompletionItemKind.Snippet, s.detail,
                hook.equals("preStop") ? HookFacts.PRE_STOP : HookFacts.POST_START, out.size(), hook));
          }
        }
      }
    } else if (ctx.kind() == CursorContext.Kind.KEY && below.size() == 1 && isHook(below.get(0))) {
      if (ctx.siblings().stream().anyMatch(k -> List.of("exec", "httpGet", "sleep", "tcpSocket").contains(k))) {
        return;
      }
      for (Skeleton s : skeletons(r, c, (String) below.get(0))) {
        out.add(item(r, s.label + MARK, body(ctx, s), true, CompletionItemKind.Snippet, s.detail, null, out.size(),
            s.action));
      }
    } else if (ctx.kind() == CursorContext.Kind.VALUE && "port".equals(ctx.key()) && below.size() == 2
        && isHook(below.get(0)) && "httpGet".equals(below.get(1)) && c != null) {
      ports(r, c, out);
    }
  }

  private static boolean isHook(Object key) {
    return "preStop".equals(key) || "postStart".equals(key);
  }

  /**
   * A handler body: its action key, YAML lines below the handler key (snippet syntax), and the same as one JSON
   * object.
   */
  private record Skeleton(String action, String label, String detail, List<String> yaml, String json) {}

  private static List<Skeleton> skeletons(Request r, Container c, String hook) {
    List<Skeleton> out = new ArrayList<>();
    boolean preStop = hook.equals("preStop");
    OptionalLong grace = c == null ? OptionalLong.empty() : c.pod().grace();
    // The sleep action needs Kubernetes 1.30 (HL107), and must fit the grace period (HL105).
    long sleep = grace.isPresent() ? Math.min(5, grace.getAsLong()) : 5;
    if (preStop && !r.targets.kubernetes().isBefore(1, 30) && sleep > 0) {
      out.add(new Skeleton("sleep", "sleep " + sleep + " s", "the kubelet waits " + sleep + " s, no binary needed"
          + " in the image", List.of("sleep:", "  seconds: ${1:" + sleep + "}"),
          "{\"sleep\": {\"seconds\": ${1:" + sleep + "}}}"));
    }
    String script = preStop ? "sleep 5" : "echo started";
    out.add(new Skeleton("exec", "exec command", "runs a command in the container; exec hooks have no timeout",
        List.of("exec:", "  command: [\"/bin/sh\", \"-c\", \"${1:" + script + "}\"]"),
        "{\"exec\": {\"command\": [\"/bin/sh\", \"-c\", \"${1:" + script + "}\"]}}"));
    List<Port> ports = c == null ? List.of() : ports(c);
    Port first = ports.isEmpty() ? null : ports.get(0);
    String port = first == null ? "8080" : first.name() != null ? first.name() : first.number();
    boolean named = first != null && first.name() != null;
    out.add(new Skeleton("httpGet", "httpGet port " + port, "the kubelet sends GET to the pod's IP on this"
        + " container's port", List.of("httpGet:", "  path: ${1:/" + (preStop ? "shutdown" : "") + "}",
        "  port: ${2:" + port + "}"), "{\"httpGet\": {\"path\": \"${1:/" + (preStop ? "shutdown" : "") + "}\","
        + " \"port\": " + (named ? "\"${2:" + port + "}\"" : "${2:" + port + "}") + "}}"));
    return out;
  }

  /** {@code hook:} and a handler body, indented under the cursor's column. */
  private static String block(CursorContext ctx, String hook, Skeleton s) {
    if (ctx.json()) {
      return keyText(ctx, hook) + s.json;
    }
    List<String> lines = new ArrayList<>();
    lines.add(keyText(ctx, hook).stripTrailing());
    s.yaml.forEach(l -> lines.add("  " + l));
    return indented(ctx, lines);
  }

  /** A handler body at the cursor. */
  private static String body(CursorContext ctx, Skeleton s) {
    if (ctx.json()) {
      return s.json.substring(1, s.json.length() - 1).strip();
    }
    return indented(ctx, s.yaml);
  }

  /** Lines joined so that each after the first starts at the cursor's column, as the first does. */
  private static String indented(CursorContext ctx, List<String> lines) {
    String pad = " ".repeat(ctx.indent());
    StringBuilder sb = new StringBuilder(lines.get(0));
    for (int i = 1; i < lines.size(); i++) {
      sb.append('\n').append(pad).append(lines.get(i));
    }
    return sb.toString();
  }

  /** A declared container port: its name (or null) and number as written. */
  private record Port(String name, String number) {}

  private static List<Port> ports(Container c) {
    List<Port> out = new ArrayList<>();
    YSeq seq = c.node().seq("ports");
    if (seq != null) {
      for (YNode n : seq.items()) {
        if (n instanceof YMap p) {
          String name = p.string("name");
          YScalar number = p.scalar("containerPort");
          boolean knownName = name != null && !p.scalar("name").isTemplated();
          String num = number != null && number.type() == YScalar.Type.INT ? number.value() : null;
          if (knownName || num != null) {
            out.add(new Port(knownName ? name : null, num));
          }
        }
      }
    }
    return out;
  }

  /** The container's own port names and numbers: the kubelet resolves a named port in the same container only. */
  private void ports(Request r, Container c, List<CompletionItem> out) {
    boolean inQuotes = r.ctx.quote() != 0;
    for (Port p : ports(c)) {
      if (p.name() != null) {
        out.add(value(r, p.name(), false, p.number() == null ? "a port of container " + c.displayName()
            : "containerPort " + p.number() + " of container " + c.displayName(), out.size()));
      }
    }
    for (Port p : ports(c)) {
      // A quoted number is a string, and not a valid port name (HL109).
      if (p.number() != null && !inQuotes) {
        out.add(item(r, p.number(), (r.ctx.needsSpace() ? " " : "") + p.number(), false, CompletionItemKind.Value,
            p.name() == null ? "a port of container " + c.displayName() : "port " + p.name(), null, out.size(),
            null));
      }
    }
  }

  // ---- DeploymentConfig hooks ----

  /** Depth of the hook's phase in the path when the cursor is in a DeploymentConfig hook, else -1. */
  private static int dcPhase(CursorContext ctx) {
    List<Object> p = ctx.path();
    int s = p.indexOf("strategy");
    if (s < 1 || !"spec".equals(p.get(s - 1)) || p.size() < s + 3) {
      return -1;
    }
    Object params = p.get(s + 1);
    Object phase = p.get(s + 2);
    return ("recreateParams".equals(params) || "rollingParams".equals(params)) && DcPhase.KEYS.contains(phase)
        ? s + 2 : -1;
  }

  private void deploymentConfig(Request r, List<CompletionItem> out) {
    CursorContext ctx = r.ctx;
    int depth = dcPhase(ctx);
    List<Object> p = ctx.path();
    String phase = (String) p.get(depth);
    String strategy = "recreateParams".equals(p.get(depth - 1)) ? "Recreate" : "Rolling";
    // rollingParams.mid is not a field (HL310).
    if (!DcCompletions.phases(strategy).contains(phase)) {
      return;
    }
    Resource dc = r.resource();
    if (dc != null && !DcHook.isDeploymentConfig(dc)) {
      return;
    }
    List<Object> below = p.subList(depth + 1, p.size());
    if (ctx.kind() == CursorContext.Kind.VALUE && below.isEmpty() && "failurePolicy".equals(ctx.key())) {
      List<DcCompletions.Item> policies = DcCompletions.failurePolicies(phase);
      for (DcCompletions.Item i : policies) {
        boolean recommended = i == policies.get(0);
        CompletionItem item = value(r, i.label(), false, i.detail(), out.size());
        item.setDocumentation(new MarkupContent(MarkupKind.MARKDOWN, HookFacts.dcPolicy(i.label())
            + (recommended ? "\n\nRecommended for a `" + phase + "` hook." : "")));
        item.setPreselect(recommended);
        out.add(item);
      }
    } else if (ctx.kind() == CursorContext.Kind.KEY && below.isEmpty() && ctx.siblings().isEmpty() && dc != null
        && !ctx.json()) {
      for (DcCompletions.Item s : DcCompletions.skeletons(phase, dc)) {
        String action = s.label().contains("tagImages") ? "tagImages" : "execNewPod";
        out.add(item(r, action + " hook" + MARK, indented(ctx, List.of(escape(s.label()).split("\n"))), true,
            CompletionItemKind.Snippet, s.detail(), "Runs " + HookFacts.dcPhase(phase) + ".", out.size(),
            "failurePolicy"));
      }
    } else if (dc != null && ctx.kind() == CursorContext.Kind.VALUE && "containerName".equals(ctx.key())
        && (below.equals(List.of("execNewPod")) || below.size() == 2 && "tagImages".equals(below.get(0)))) {
      for (String name : DcCompletions.containerNames(dc)) {
        out.add(value(r, name, false, "a container of the template", out.size()));
      }
    } else if (dc != null && ctx.kind() == CursorContext.Kind.ITEM && below.size() == 3
        && below.subList(0, 2).equals(List.of("execNewPod", "volumes"))) {
      YNode existing = r.node(depth + 3);
      Set<String> used = new TreeSet<>();
      if (existing instanceof YSeq seq) {
        seq.items().forEach(n -> {
          if (n instanceof YScalar s) {
            used.add(s.value());
          }
        });
      }
      for (String v : DcCompletions.volumeNames(dc)) {
        if (!used.contains(v)) {
          out.add(value(r, v, false, "a volume of the template", out.size()));
        }
      }
    }
  }

  // ---- Items ----

  private static String escape(String snippetText) {
    return snippetText.replace("\\", "\\\\").replace("$", "\\$").replace("}", "\\}");
  }

  /** Snippet text as plain text: each placeholder's default, the first of each choice. */
  private static String plain(String snippet) {
    String s = CHOICE.matcher(snippet).replaceAll("$1");
    s = TABSTOP.matcher(s).replaceAll("$1");
    return s.replace("\\$", "$").replace("\\}", "}").replace("\\\\", "\\");
  }

  private CompletionItem item(Request r, String label, String text, boolean snippet, CompletionItemKind kind,
      String detail, String documentation, int order, String filter) {
    CursorContext ctx = r.ctx;
    CompletionItem item = new CompletionItem(label);
    item.setKind(kind);
    item.setDetail(detail);
    if (documentation != null) {
      item.setDocumentation(new MarkupContent(MarkupKind.MARKDOWN, documentation));
    }
    boolean asSnippet = snippet && r.client.snippets();
    String insert = snippet && !asSnippet ? plain(text) : text;
    insert = insert.replace("\n", lineBreak(r.doc));
    Range range = new Range(new Position(ctx.line(), ctx.from()), new Position(ctx.line(), ctx.to()));
    item.setTextEdit(Either.forLeft(new TextEdit(range, insert)));
    item.setInsertTextFormat(asSnippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText);
    if (r.client.asIs() && insert.contains("\n")) {
      item.setInsertTextMode(InsertTextMode.AsIs);
    }
    String f = filter != null ? filter : label;
    // Clients filter on the text from the start of the range, an opening quote included.
    item.setFilterText(ctx.replacesQuotes() || (ctx.json() && ctx.quote() != 0) ? ctx.quote() + f : f);
    item.setSortText(String.format("%03d", order));
    return item;
  }

  private static String lineBreak(TextDocument doc) {
    String t = doc.text();
    int nl = t.indexOf('\n');
    return nl > 0 && t.charAt(nl - 1) == '\r' ? "\r\n" : "\n";
  }
}
