package io.hooklens.lsp;

import io.hooklens.core.model.Handler;
import io.hooklens.core.model.Hook;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.helm.HelmAnnotations;
import io.hooklens.core.model.helm.HookPlan;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YScalar;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.lsp4j.InlayHint;
import org.eclipse.lsp4j.MarkupContent;
import org.eclipse.lsp4j.MarkupKind;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.jsonrpc.messages.Either;

/**
 * Inlay hints at the end of hook lines: a preStop hook's budget against its grace period
 * ({@code 35 s of 30 s grace}) and a Helm hook's place in each of its events
 * ({@code #2 of pre-install (weight -5)}).
 */
final class InlayHintsService {
  /** The hints of a read snapshot whose lines fall in {@code range}. */
  List<InlayHint> hints(Analyzer.Parsed parsed, Range range) {
    if (!parsed.kubernetesLike()) {
      return List.of();
    }
    HookDocument model = parsed.model();
    Positions positions = new Positions(model.source(), parsed.document().text());
    int first = range.getStart().getLine();
    int last = range.getEnd().getLine();
    List<InlayHint> out = new ArrayList<>();
    for (Handler h : model.handlers()) {
      int line = h.key().range().start().line();
      if (h.hook() == Hook.PRE_STOP && line >= first && line <= last) {
        HookFacts.Budget b = HookFacts.Budget.of(h);
        out.add(hint(endOfLine(model, positions, line), b.hint(), "```text\n" + String.join("\n", b.timeline())
            + "\n```"));
      }
    }
    for (Resource r : model.resources()) {
      YMap.Entry e = HelmAnnotations.entry(r, HelmAnnotations.HOOK);
      int line = e == null ? -1 : e.key().range().start().line();
      if (e == null || !(e.value() instanceof YScalar) || line < first || line > last) {
        continue;
      }
      List<String> labels = new ArrayList<>();
      for (HookPlan.Place p : HookPlan.places(model, r)) {
        labels.add(HookFacts.placeHint(p));
      }
      if (!labels.isEmpty()) {
        out.add(hint(endOfLine(model, positions, line), String.join(", ", labels), "Helm runs an event's hooks by"
            + " weight, then by name" + (labels.stream().anyMatch(l -> l.contains("?"))
                ? "; `?`: template values may change the place once rendered" : "") + "."));
      }
    }
    out.sort((a, b) -> Integer.compare(a.getPosition().getLine(), b.getPosition().getLine()));
    return out;
  }

  private static Position endOfLine(HookDocument model, Positions positions, int line) {
    String text = model.source().line(line);
    return positions.position(new io.hooklens.core.yaml.Position(line, text.codePointCount(0, text.length())));
  }

  private static InlayHint hint(Position at, String label, String tooltip) {
    InlayHint hint = new InlayHint(at, Either.forLeft(label));
    hint.setPaddingLeft(true);
    hint.setTooltip(Either.forRight(new MarkupContent(MarkupKind.MARKDOWN, tooltip)));
    return hint;
  }
}
