package io.hooklens.lsp;

import io.hooklens.core.model.Container;
import io.hooklens.core.model.Handler;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.helm.HelmAnnotations;
import io.hooklens.core.model.openshift.DcHook;
import io.hooklens.core.yaml.ParsedFile;
import io.hooklens.core.yaml.Range;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.core.yaml.YSeq;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.eclipse.lsp4j.DocumentSymbol;
import org.eclipse.lsp4j.SymbolKind;

/**
 * The outline of a file's hooks: each resource that has hooks (inside its List or Template), with
 * its containers and their {@code postStart}/{@code preStop} handlers, the events of a Helm hook, and
 * the {@code pre}/{@code mid}/{@code post} hooks of a DeploymentConfig. Resources without hooks are
 * left out: a generic YAML outline already lists every key, this one answers "what runs when".
 */
final class DocumentSymbolsService {
  private static final int MAX_DETAIL = 80;
  private static final Comparator<DocumentSymbol> BY_POSITION = Comparator
      .comparingInt((DocumentSymbol s) -> s.getRange().getStart().getLine())
      .thenComparingInt(s -> s.getRange().getStart().getCharacter());

  List<DocumentSymbol> symbols(HookDocument model, String clientText) {
    Positions positions = new Positions(model.source(), clientText);
    Map<Resource, List<DocumentSymbol>> children = new IdentityHashMap<>();
    for (Container c : model.containers()) {
      List<DocumentSymbol> handlers = new ArrayList<>();
      for (Handler h : model.handlers()) {
        if (h.container() == c) {
          handlers.add(handler(h, model.parsed(), positions));
        }
      }
      if (!handlers.isEmpty()) {
        children.computeIfAbsent(c.pod().owner(), r -> new ArrayList<>()).add(container(c, handlers, positions));
      }
    }
    for (Resource r : model.resources()) {
      helmEvents(r, positions).forEach(s -> children.computeIfAbsent(r, k -> new ArrayList<>()).add(s));
      if (DcHook.isDeploymentConfig(r)) {
        for (DcHook h : DcHook.of(r)) {
          children.computeIfAbsent(r, k -> new ArrayList<>()).add(dcHook(h, positions));
        }
      }
    }
    // Resources with hooks, and the Lists and Templates that hold them.
    Map<Resource, DocumentSymbol> symbols = new LinkedHashMap<>();
    for (Resource r : model.resources()) {
      if (children.containsKey(r)) {
        for (Resource x = r; x != null && !symbols.containsKey(x); x = x.parent()) {
          symbols.put(x, resource(x, positions));
        }
      }
    }
    List<DocumentSymbol> roots = new ArrayList<>();
    for (Map.Entry<Resource, DocumentSymbol> e : symbols.entrySet()) {
      DocumentSymbol s = e.getValue();
      s.getChildren().addAll(children.getOrDefault(e.getKey(), List.of()));
      Resource parent = e.getKey().parent();
      if (parent == null) {
        roots.add(s);
      } else {
        symbols.get(parent).getChildren().add(s);
      }
    }
    symbols.values().forEach(s -> s.getChildren().sort(BY_POSITION));
    roots.sort(BY_POSITION);
    return roots;
  }

  private static DocumentSymbol resource(Resource r, Positions positions) {
    YMap md = r.metadata();
    YScalar name = md == null ? null : md.scalar("name");
    YScalar kind = r.root().scalar("kind");
    YNode selection = name != null ? name : kind != null ? kind : r.root();
    String label = r.kind() == null ? "(no kind)" : r.kind();
    if (r.name() != null) {
      label += "/" + r.name();
    }
    SymbolKind symbolKind = r.kind() != null && (r.kind().endsWith("List") || r.kind().equals("Template"))
        ? SymbolKind.Namespace : SymbolKind.Class;
    return symbol(label, r.apiVersion(), symbolKind, r.root(), selection, positions);
  }

  private static DocumentSymbol container(Container c, List<DocumentSymbol> handlers, Positions positions) {
    String detail = switch (c.kind()) {
      case REGULAR -> "container";
      case INIT -> c.isSidecar() ? "sidecar container" : "init container";
      case EPHEMERAL -> "ephemeral container";
    };
    YScalar name = c.node().scalar("name");
    DocumentSymbol s = symbol(c.displayName(), detail, SymbolKind.Object, c.node(), name == null ? c.node() : name,
        positions);
    s.getChildren().addAll(handlers);
    s.getChildren().sort(BY_POSITION);
    return s;
  }

  private static DocumentSymbol handler(Handler h, ParsedFile parsed, Positions positions) {
    return symbol(h.hook().field(), describe(h, parsed), SymbolKind.Event, h.key(), h.value(), h.key(), positions);
  }

  /** What a handler does, in a few words: {@code exec: sleep 5}, {@code httpGet: /drain port http}. */
  private static String describe(Handler h, ParsedFile parsed) {
    List<String> actions = h.actions();
    if (actions.isEmpty()) {
      return "no action";
    }
    YMap m = h.map();
    List<String> parts = new ArrayList<>();
    for (String a : actions) {
      YNode v = m.get(a);
      String what = switch (a) {
        case "exec" -> v instanceof YMap exec && exec.get("command") instanceof YSeq cmd
            ? cmd.items().stream().map(n -> n instanceof YScalar s ? parsed.display(s) : "…")
                .collect(Collectors.joining(" "))
            : "";
        case "httpGet" -> v instanceof YMap get
            ? (get.string("path") == null ? "/" : parsed.display(get.scalar("path"))) + " port " + scalar(get, "port",
                parsed)
            : "";
        case "sleep" -> v instanceof YMap sleep ? scalar(sleep, "seconds", parsed) + "s" : "";
        case "tcpSocket" -> v instanceof YMap tcp ? "port " + scalar(tcp, "port", parsed) : "";
        default -> "";
      };
      parts.add(what.isEmpty() ? a : a + ": " + what);
    }
    return shorten(String.join(" + ", parts));
  }

  private static String scalar(YMap m, String key, ParsedFile parsed) {
    YScalar s = m.scalar(key);
    return s == null || s.type() == YScalar.Type.NULL ? "?" : parsed.display(s);
  }

  /** One symbol per event of a Helm hook, on the {@code helm.sh/hook} annotation. */
  private static List<DocumentSymbol> helmEvents(Resource r, Positions positions) {
    YMap.Entry e = HelmAnnotations.entry(r, HelmAnnotations.HOOK);
    if (r.parent() != null || e == null || !(e.value() instanceof YScalar v) || v.type() == YScalar.Type.NULL) {
      return List.of();
    }
    YScalar weight = HelmAnnotations.annotation(r, HelmAnnotations.WEIGHT);
    String detail = "Helm hook, weight " + (weight != null && weight.isTemplated() ? "from a template"
        : HelmAnnotations.weight(r));
    List<DocumentSymbol> out = new ArrayList<>();
    if (v.isTemplated()) {
      out.add(symbol(HelmAnnotations.HOOK, detail, SymbolKind.Event, e.key(), v, v, positions));
      return out;
    }
    for (HelmAnnotations.Item item : HelmAnnotations.items(v)) {
      if (!item.normalized().isEmpty()) {
        out.add(symbol(item.normalized(), detail, SymbolKind.Event, e.key(), v, v, positions));
      }
    }
    return out;
  }

  private static DocumentSymbol dcHook(DcHook h, Positions positions) {
    List<String> detail = new ArrayList<>();
    detail.add(h.describe());
    YScalar policy = h.failurePolicy();
    detail.add("failurePolicy " + (policy == null || policy.type() == YScalar.Type.NULL ? "missing" : policy.value()));
    if (h.execNewPod() != null) {
      detail.add("execNewPod");
    }
    if (h.tagImages() != null) {
      detail.add("tagImages");
    }
    YNode value = h.hook() != null ? h.hook() : h.key();
    return symbol(h.phase().key(), String.join(" · ", detail), SymbolKind.Event, h.key(), value, h.key(), positions);
  }

  private static DocumentSymbol symbol(String name, String detail, SymbolKind kind, YNode node, YNode selection,
      Positions positions) {
    return symbol(name, detail, kind, node, node, selection, positions);
  }

  /**
   * A symbol whose range runs from {@code from} to the end of {@code to} (a key and its value). LSP
   * wants the selection inside the range; a value reached through an alias sits elsewhere in the file,
   * so each range falls back to what contains it.
   */
  private static DocumentSymbol symbol(String name, String detail, SymbolKind kind, YNode from, YNode to,
      YNode selection, Positions positions) {
    Range r = from.range();
    if (to.range().end().compareTo(r.end()) > 0) {
      r = new Range(r.start(), to.range().end());
    }
    Range sel = r.contains(selection.range()) ? selection.range() : from.range();
    return new DocumentSymbol(name.isBlank() ? "(unnamed)" : name, kind, positions.range(r), positions.range(sel),
        detail == null ? null : shorten(detail), new ArrayList<>());
  }

  private static String shorten(String s) {
    String oneLine = s.replaceAll("\\s+", " ").strip();
    return oneLine.length() <= MAX_DETAIL ? oneLine : oneLine.substring(0, MAX_DETAIL - 1) + "…";
  }
}
