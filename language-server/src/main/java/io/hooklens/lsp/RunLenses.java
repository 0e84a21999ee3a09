package io.hooklens.lsp;

import com.google.gson.JsonObject;
import io.hooklens.app.ChartLint;
import io.hooklens.core.model.Container;
import io.hooklens.core.model.Handler;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.helm.HookPlan;
import io.hooklens.core.model.openshift.DcHook;
import io.hooklens.core.text.Printable;
import io.hooklens.run.Selection;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.eclipse.lsp4j.CodeLens;
import org.eclipse.lsp4j.Command;

/** The code lenses that run hooks: each calls {@code hooklens.runHook} ({@link HookRunService}) with its arguments. */
final class RunLenses {
  private final Analyzer analyzer;

  RunLenses(Analyzer analyzer) {
    this.analyzer = analyzer;
  }

  /**
   * The lenses of a document: above each hook of a regular container, run it; above preStop, its timeline; on
   * each Helm hook's events, run the event (in a chart template, the chart's event, rendered); on a
   * DeploymentConfig, run its rollout.
   */
  List<CodeLens> lenses(TextDocument doc) {
    Analyzer.Parsed parsed = analyzer.parse(doc);
    HookDocument model = parsed.model();
    List<CodeLens> lenses = new ArrayList<>();
    if (!parsed.kubernetesLike()) {
      return lenses;
    }
    Positions positions = new Positions(model.source(), doc.text());
    if (model.parsed().templated()) {
      // A template's values exist only once Helm renders its chart: only the chart's Helm events can run.
      Path file = ConfigService.path(doc.uri());
      Optional<Path> chart = file == null ? Optional.empty() : ChartLint.chartOf(file);
      chart.ifPresent(dir -> helmLenses(doc, model, positions, dir, lenses));
      return lenses;
    }
    for (Handler h : model.handlers()) {
      Container c = h.container();
      if (c.kind() != Container.Kind.REGULAR || c.name() == null || model.resourceOf(h.key()) == null) {
        continue;
      }
      String field = h.hook().field();
      lenses.add(new CodeLens(positions.range(h.key().range()),
          new Command("▶ Run " + field + " locally", HookRunService.RUN_HOOK, List.of(arguments(doc.uri(), h, field, "report"))),
          null));
      if ("preStop".equals(field)) {
        lenses.add(new CodeLens(positions.range(h.key().range()),
            new Command("Show termination timeline", HookRunService.RUN_HOOK, List.of(arguments(doc.uri(), h, Selection.ALL,
                "timeline"))), null));
      }
    }
    helmLenses(doc, model, positions, null, lenses);
    for (Resource r : model.resources()) {
      DcHook first = DcHook.of(r).stream().filter(DcHook::runsOnRollout).findFirst().orElse(null);
      if (DcHook.isDeploymentConfig(r) && first != null) {
        JsonObject args = new JsonObject();
        args.addProperty("uri", doc.uri());
        args.addProperty("kind", HookRunService.ROLLOUT);
        args.addProperty("resource", "DeploymentConfig/" + r.name());
        args.addProperty("show", "report");
        lenses.add(new CodeLens(positions.range(first.key().range()), new Command("▶ Run rollout hooks locally",
            HookRunService.RUN_HOOK, List.of(args)), null));
      }
    }
    return lenses;
  }

  /**
   * One lens per Helm hook and event, on the {@code helm.sh/hook} value; each runs the whole event, as Helm does,
   * of this file or, in a template, of its chart.
   */
  private static void helmLenses(TextDocument doc, HookDocument model, Positions positions, Path chart,
      List<CodeLens> lenses) {
    Set<String> seen = new HashSet<>();
    for (HookPlan.Event event : HookPlan.of(model)) {
      for (HookPlan.Step step : event.steps()) {
        if (seen.add(step.source() + " " + event.name())) {
          JsonObject args = new JsonObject();
          args.addProperty("uri", doc.uri());
          args.addProperty("kind", HookRunService.HELM);
          args.addProperty("event", event.name());
          args.addProperty("show", "report");
          if (chart != null) {
            args.addProperty("chart", chart.toString());
          }
          String title = Printable.line(chart != null ? "▶ Run the chart's " + event.name() + " hooks locally"
              : "▶ Run " + event.name() + " hooks locally (" + event.steps().size() + ")");
          lenses.add(new CodeLens(positions.range(step.source()), new Command(title, HookRunService.RUN_HOOK, List.of(args)), null));
        }
      }
    }
  }

  private static JsonObject arguments(String uri, Handler h, String hook, String show) {
    JsonObject args = new JsonObject();
    args.addProperty("uri", uri);
    args.addProperty("resource", h.container().pod().owner().displayName());
    args.addProperty("document", h.container().pod().owner().document());
    args.addProperty("container", h.container().name());
    args.addProperty("hook", hook);
    args.addProperty("show", show);
    return args;
  }
}
