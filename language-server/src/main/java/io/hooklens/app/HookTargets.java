package io.hooklens.app;

import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.Linter;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.text.Printable;
import io.hooklens.core.yaml.ParseProblem;
import io.hooklens.core.yaml.Range;
import io.hooklens.core.yaml.SourceText;
import io.hooklens.core.yaml.YamlReader;
import io.hooklens.run.Origin;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * The manifests a hook command works on ({@code hooklens run}, {@code hooklens hooks}, the editor's runs): a chart
 * rendered once with real Helm, or a manifest file or text read as the linter reads files (size limit, strict
 * UTF-8), with the configuration of its place. Manifests YAML cannot read are refused with the place.
 */
public final class HookTargets {
  private static final String CHART_YAML = "Chart.yaml";

  /** How a manifest's {@code {{} is read. */
  public enum Reading {
    /** As the linter reads files: a chart template is recognised as one, so that a run can refuse it. */
    LINTED,
    /** As Helm reads its own output: rendered manifests are final YAML, and a {@code {{} in them is text. */
    RENDERED
  }

  /**
   * Manifests to work on.
   *
   * @param config the configuration of their place, which their findings are linted with
   * @param origins for a chart, the way from a place in its manifests to its files; else null
   * @param notes for a chart Helm rendered in part, what it left out or was given in place of values
   */
  public record Target(HookDocument doc, Config config, Function<Range, Origin> origins, List<String> notes) {
    /** The file and place a place in the manifests comes from. */
    public Origin origin(Range range) {
      return origins != null ? origins.apply(range) : new Origin(doc.name(), range.start());
    }
  }

  /** Manifests that cannot be had; the message says why on one line, after the file and place. */
  public static final class Unavailable extends Exception {
    public Unavailable(String message) {
      super(message, null, false, false);
    }

    Unavailable(String message, Throwable cause) {
      super(message, cause, false, false);
    }
  }

  private final Linter linter;
  private final ConfigResolver configs;

  public HookTargets(Linter linter) {
    this.linter = linter;
    this.configs = new ConfigResolver(linter.registry(), null);
  }

  /**
   * What a command line names: a chart (its directory or its Chart.yaml) rendered with the values, or a manifest
   * file, which takes no values; each with the configuration {@link ConfigResolver} finds for it.
   */
  public Target named(Path target, ChartLint.Values values, Reading reading)
      throws Unavailable, ConfigResolver.ConfigException {
    return named(target, values, reading, false);
  }

  /**
   * What a command line names, as {@link #named}, for a plan that is only shown: a chart Helm refuses is read from
   * its templates ({@link #chartOrTemplates}), and a file as Helm reads its own output.
   */
  public Target namedForPlan(Path target, ChartLint.Values values) throws Unavailable, ConfigResolver.ConfigException {
    return named(target, values, Reading.RENDERED, true);
  }

  private Target named(Path target, ChartLint.Values values, Reading reading, boolean templatesWhenRefused)
      throws Unavailable, ConfigResolver.ConfigException {
    Optional<String> unreadable = InputFiles.unreadable(target);
    if (unreadable.isPresent()) {
      throw new Unavailable(target + ": " + unreadable.get());
    }
    Path chart = ChartLint.named(target);
    if (chart != null) {
      // Helm's worker starts while the configuration is read.
      ChartLint.prepare();
      Config config = configs.forFile(chart.resolve(CHART_YAML)).config();
      return templatesWhenRefused ? chartOrTemplates(chart, values, config) : chart(chart, values, config);
    }
    if (!values.equals(ChartLint.Values.NONE)) {
      throw new Unavailable("--values, --set, --release-name, --namespace and --dependency-update apply to charts"
          + " only; " + target + " is rendered already");
    }
    return file(target, configs.forFile(target).config(), reading);
  }

  /**
   * A chart's manifests, rendered as {@code helm template} does with the values and the configuration's
   * {@code helm.set}.
   */
  public Target chart(Path chart, ChartLint.Values values, Config config) throws Unavailable {
    try {
      ChartLint.Manifests rendered = ChartLint.manifests(chart, values, config);
      return new Target(HookDocument.of(chart.toString(), rendered.parsed()), config, rendered.origins(),
          rendered.notes());
    } catch (IOException e) {
      throw new Unavailable(e.getMessage(), e);
    }
  }

  /**
   * A chart's manifests as {@link #chart} renders them, or, when Helm refuses the chart, its templates read with
   * their actions masked, with notes saying so and naming the hooks whose place is unknown: for {@code hooks},
   * which shows what it can. A run needs what Helm installs, and uses {@link #chart}.
   */
  public Target chartOrTemplates(Path chart, ChartLint.Values values, Config config) throws Unavailable {
    try {
      return chart(chart, values, config);
    } catch (Unavailable refusal) {
      if (!(refusal.getCause() instanceof ChartLint.Refused)) {
        throw refusal;
      }
      try {
        ChartLint.Manifests masked = ChartLint.masked(chart);
        List<String> notes = new ArrayList<>();
        notes.add(refusal.getMessage() + "; the hooks are read from its templates with their actions masked, so"
            + " the values, conditions and includes of the templates are not applied");
        notes.addAll(masked.notes());
        return new Target(HookDocument.of(chart.toString(), masked.parsed()), config, masked.origins(), notes);
      } catch (IOException e) {
        throw new Unavailable("cannot read " + chart + ": " + IoErrors.reason(e));
      }
    }
  }

  /** A manifest file as saved. */
  public Target file(Path file, Config config, Reading reading) throws Unavailable {
    Linter.Decoded decoded;
    try {
      decoded = Linter.decode(Files.readAllBytes(file));
    } catch (IOException | OutOfMemoryError e) {
      throw new Unavailable("cannot read " + file + ": " + IoErrors.reason(e));
    }
    if (decoded.refused()) {
      // The linter's sentence, after the file's name as every error line has it.
      throw new Unavailable(file + ": " + decoded.refusalClause());
    }
    return text(file.toString(), decoded.text(), config, reading);
  }

  /** Manifests as text, such as an open document's, under a name that says whether they are JSON. */
  public Target text(String name, String text, Config config, Reading reading) throws Unavailable {
    HookDocument doc = reading == Reading.LINTED ? linter.parse(name, text)
        : HookDocument.of(name, new YamlReader().read(new SourceText(text),
            name.toLowerCase(Locale.ROOT).endsWith(".json")));
    for (ParseProblem p : doc.parsed().problems()) {
      if (p.kind() == ParseProblem.Kind.SYNTAX || p.kind() == ParseProblem.Kind.LIMIT) {
        throw new Unavailable(name + ":" + (p.range().start().line() + 1) + ":" + (p.range().start().column() + 1)
            + ": " + Printable.line(p.message()) + (reading == Reading.RENDERED ? "; Helm could not read it either"
            : ""));
      }
    }
    return new Target(doc, config, null, List.of());
  }
}
