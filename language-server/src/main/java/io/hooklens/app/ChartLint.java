package io.hooklens.app;

import io.hooklens.chart.ChartLinter;
import io.hooklens.chart.SetValues;
import io.hooklens.chart.ValuesSet;
import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.Linter;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.yaml.ParsedFile;
import io.hooklens.core.yaml.Range;
import io.hooklens.rules.input.HelmRenderFailed;
import io.hooklens.run.Origin;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Linting a Helm chart, for {@code hooklens lint} and the editor alike: rendered with real Helm once per values
 * set, each finding on the chart file and line it comes from. Where Helm cannot run here, and for a library chart
 * (never installed alone), the chart's files are linted one by one, templates with their actions masked; so they
 * are when no values set renders, besides Helm's refusals (HL005).
 */
public final class ChartLint {
  private static final String CHART_YAML = "Chart.yaml";
  private static final String RENDER_FAILED = HelmRenderFailed.class.getAnnotation(RuleInfo.class).id();

  /**
   * Values as Helm takes them.
   *
   * @param layered values files on top of values.yaml in every rendering, as helm -f
   * @param extraSets values files each rendered as one more values set
   * @param set the --set values of every rendering
   */
  public record Values(List<Path> layered, List<Path> extraSets, SetValues set) {
    public static final Values NONE = new Values(List.of(), List.of(), SetValues.NONE);
  }

  /**
   * A chart linted.
   *
   * @param files the findings by file: Chart.yaml first, then the files in order
   * @param valuesSets how many values sets Helm rendered the chart with; 0 when it was not rendered
   * @param helmUnavailable why Helm could not run here, when it could not
   * @param problems files that could not be read, each with why
   * @param notes files skipped, each with why
   */
  public record Outcome(List<LintedFile> files, int valuesSets, Optional<String> helmUnavailable,
      List<String> problems, List<String> notes) {}

  /** Which files of a chart count, and with what configuration. */
  public interface Scope {
    /** The configuration of a file linted on its own, or empty when it is excluded. */
    Optional<Config> forFile(Path file) throws ConfigResolver.ConfigException;

    /** Whether a rendered file's findings are left out; never asked of Chart.yaml. */
    boolean excludes(Path file);
  }

  /** Every file of a chart, with one configuration; nothing excluded. */
  public static Scope everything(Function<Path, Config> configs) {
    return new Scope() {
      @Override
      public Optional<Config> forFile(Path file) {
        return Optional.of(configs.apply(file));
      }

      @Override
      public boolean excludes(Path file) {
        return false;
      }
    };
  }

  /**
   * A chart's manifests from one render, where each place in them comes from in the chart, and what the render
   * left out or was given in place of values (a note each).
   */
  public record Manifests(ParsedFile parsed, Function<Range, Origin> origins, List<String> notes) {}

  private final Linter linter;
  private final ChartLinter charts;

  public ChartLint(Linter linter) {
    this.linter = linter;
    this.charts = new ChartLinter(linter);
  }

  /** Starts Helm's worker, so that it is ready once the configuration and values are read. */
  public static void prepare() {
    ChartLinter.prepare();
  }

  /** Why charts cannot be rendered in this process, or empty when they can. */
  public static Optional<String> unavailable() {
    return ChartLinter.unavailable();
  }

  /** Whether a directory is a chart: it holds a Chart.yaml. */
  public static boolean isChart(Path dir) {
    return ChartLinter.isChart(dir);
  }

  /** The chart a command-line target names (a directory, or a Chart.yaml), or null for a file. */
  public static Path named(Path target) {
    if (Files.isDirectory(target)) {
      return target;
    }
    return target.getFileName() != null && target.getFileName().toString().equals(CHART_YAML)
        ? (target.getParent() == null ? Path.of(".") : target.getParent()) : null;
  }

  /**
   * The chart a file belongs to: the nearest directory above it with a Chart.yaml, or the chart whose
   * {@code charts/} holds that one, since a subchart is rendered with its parent's values.
   */
  public static Optional<Path> chartOf(Path file) {
    Path dir = file.getParent();
    while (dir != null && !isChart(dir)) {
      dir = dir.getParent();
    }
    if (dir == null) {
      return Optional.empty();
    }
    while (dir.getParent() != null && dir.getParent().getFileName() != null
        && dir.getParent().getFileName().toString().equals("charts") && dir.getParent().getParent() != null
        && isChart(dir.getParent().getParent())) {
      dir = dir.getParent().getParent();
    }
    return Optional.of(dir);
  }

  /**
   * Lints a chart with the configuration of its Chart.yaml.
   *
   * @throws IOException when the chart cannot be read
   */
  public Outcome lint(Path dir, Values values, Config config, Scope scope)
      throws IOException, ConfigResolver.ConfigException {
    Optional<String> unavailable = unavailable();
    if (unavailable.isPresent() || ChartLinter.isLibrary(dir)) {
      List<String> problems = new ArrayList<>();
      List<String> notes = new ArrayList<>();
      List<LintedFile> files = oneByOne(dir, scope, false, problems, notes);
      return new Outcome(files, 0, unavailable, problems, notes);
    }
    String chartYaml = dir.resolve(CHART_YAML).toString();
    List<ValuesSet> sets = ChartLinter.valuesSets(dir, values.extraSets(), config.charts());
    ChartLinter.Linted linted = charts.lint(dir, values.layered(), sets,
        ChartLinter.setValues(config.charts(), values.set()), config);
    List<ChartLinter.ChartFile> rendered = linted.files();
    List<LintedFile> files = new ArrayList<>();
    if (linted.rendered() == 0) {
      // Keep what can be checked without Helm: the render failure, plus each file on its own.
      rendered.stream().filter(f -> f.displayName().equals(chartYaml) || hasRenderFailure(f))
          .forEach(f -> files.add(new LintedFile(f.displayName(), f.result(), f.valuesSets())));
      List<String> problems = new ArrayList<>();
      List<String> notes = new ArrayList<>();
      files.addAll(oneByOne(dir, scope, true, problems, notes));
      return new Outcome(files, sets.size(), Optional.empty(), problems, notes);
    }
    for (ChartLinter.ChartFile f : rendered) {
      if (f.displayName().equals(chartYaml) || !scope.excludes(Path.of(f.displayName()))) {
        files.add(new LintedFile(f.displayName(), f.result(), f.valuesSets()));
      }
    }
    return new Outcome(files, sets.size(), Optional.empty(), List.of(), List.of());
  }

  /**
   * Renders a chart once, as {@code helm template} does with the layered values files and the set values (and
   * those of the configuration), for the configuration's Kubernetes version.
   *
   * @throws IOException when the directory is no chart, Helm cannot run here, the chart cannot be read, or Helm
   *     refuses it; its message says which on one line
   */
  public static Manifests manifests(Path chart, Values values, Config config) throws IOException {
    if (!isChart(chart)) {
      throw new IOException(chart + ": a directory without Chart.yaml is no chart");
    }
    Optional<String> unavailable = unavailable();
    if (unavailable.isPresent()) {
      throw new IOException("cannot render " + chart + ": " + unavailable.get()
          + "; give the output of helm template instead");
    }
    ChartLinter.Rendering r = ChartLinter.render(chart, values.layered(),
        ChartLinter.setValues(config.charts(), values.set()), config.targets().kubernetes());
    if (r instanceof ChartLinter.Refused refused) {
      throw new IOException("Helm cannot render " + chart + ": " + refused.message());
    }
    ChartLinter.Manifests m = (ChartLinter.Manifests) r;
    return new Manifests(m.parsed(), range -> {
      ChartLinter.Place place = m.place(range);
      return new Origin(place.file(), place.range().start());
    }, m.notes());
  }

  /** The chart's files linted one by one, each with its own configuration, unless excluded. */
  private List<LintedFile> oneByOne(Path dir, Scope scope, boolean notRendered, List<String> problems,
      List<String> notes) throws IOException, ConfigResolver.ConfigException {
    List<LintedFile> files = new ArrayList<>();
    for (Path file : InputFiles.walkChart(dir, notes::add)) {
      Optional<Config> config = scope.forFile(file);
      if (config.isEmpty()) {
        continue;
      }
      byte[] bytes;
      try {
        bytes = Files.readAllBytes(file);
      } catch (IOException | OutOfMemoryError e) {
        problems.add("cannot read " + file + ": " + IoErrors.reason(e));
        continue;
      }
      Config c = notRendered ? config.get().forChartNotRendered() : config.get();
      files.add(new LintedFile(file.toString(), linter.lint(file.toString(), bytes, c), Map.of()));
    }
    return files;
  }

  private static boolean hasRenderFailure(ChartLinter.ChartFile f) {
    return f.result().findings().stream().anyMatch(x -> x.ruleId().equals(RENDER_FAILED));
  }
}
