package io.hooklens.app;

import io.hooklens.chart.ChartLinter;
import io.hooklens.chart.Release;
import io.hooklens.chart.SetValues;
import io.hooklens.chart.ValuesSet;
import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.LintResult;
import io.hooklens.core.engine.Linter;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.helm.HelmAnnotations;
import io.hooklens.core.yaml.ParsedFile;
import io.hooklens.core.yaml.Position;
import io.hooklens.core.yaml.Range;
import io.hooklens.core.yaml.SourceText;
import io.hooklens.core.yaml.TemplateMask;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.core.yaml.YamlReader;
import io.hooklens.rules.input.HelmRenderFailed;
import io.hooklens.run.Origin;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Linting a Helm chart, for {@code hooklens lint} and the editor alike: rendered with real Helm once per values
 * set, each finding on the chart file and line it comes from. Where Helm cannot run here, and for a library chart
 * (never installed alone), the chart's files are linted one by one, templates with their actions masked; so they
 * are when no values set renders, besides Helm's refusals (HL005).
 */
public final class ChartLint {
  private static final String CHART_YAML = "Chart.yaml";
  private static final Pattern DEFINE = Pattern.compile("(\\{\\{-?\\s*)define\\b");
  private static final Pattern MANIFEST_KIND = Pattern.compile("(?m)^[ \\t]*kind:[ \\t]*[A-Z]\\w*[ \\t]*$");

  /**
   * Values as Helm takes them, and how the chart is prepared for Helm.
   *
   * @param layered values files on top of values.yaml in every rendering, as helm -f
   * @param extraSets values files each rendered as one more values set
   * @param set the --set values of every rendering
   * @param releaseName {@code .Release.Name}; null for the configuration's, else the default
   * @param namespace {@code .Release.Namespace}; null for the configuration's, else the default
   * @param dependencyUpdate whether the dependencies are built first, as {@code helm dependency build} does, in
   *     the copy Helm renders
   */
  public record Values(List<Path> layered, List<Path> extraSets, SetValues set, String releaseName,
      String namespace, boolean dependencyUpdate) {
    public static final Values NONE = new Values(List.of(), List.of(), SetValues.NONE);

    public Values(List<Path> layered, List<Path> extraSets, SetValues set) {
      this(layered, extraSets, set, null, null, false);
    }

    /** The release rendered: these values' names, else the configuration's, else the default's. */
    Release release(Config.Charts configured) {
      String name = releaseName != null ? releaseName
          : configured.releaseName() != null ? configured.releaseName() : Release.DEFAULT.name();
      String ns = namespace != null ? namespace
          : configured.namespace() != null ? configured.namespace() : Release.DEFAULT.namespace();
      return new Release(name, ns);
    }
  }

  /**
   * Helm could not build a chart's dependencies ({@link Values#dependencyUpdate}); the message says why on one
   * line.
   */
  public static final class DependenciesFailed extends IOException {
    public DependenciesFailed(String message) {
      super(message);
    }
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

  /**
   * Makes the helm binary a path or a name on the PATH stands for render every chart from now on; false, and
   * nothing changed, when it is no executable file.
   */
  public static boolean useHelm(String binary) {
    return ChartLinter.useHelm(binary);
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
    ChartLinter.Linted linted;
    try {
      linted = charts.lint(dir, values.layered(), sets, ChartLinter.setValues(config.charts(), values.set()), config,
          values.release(config.charts()), values.dependencyUpdate());
    } catch (ChartLinter.DependenciesFailed e) {
      throw dependenciesFailed(dir, e);
    }
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

  private static DependenciesFailed dependenciesFailed(Path chart, IOException e) {
    return new DependenciesFailed("cannot build the dependencies of chart " + chart + " (--dependency-update): "
        + e.getMessage().replace('\n', ' '));
  }

  /** Helm's refusal to render a chart; the message says so on one line. */
  public static final class Refused extends IOException {
    public Refused(String message) {
      super(message);
    }
  }

  /**
   * Renders a chart once, as {@code helm template} does with the layered values files and the set values (and
   * those of the configuration), for the configuration's Kubernetes version.
   *
   * @throws IOException when the directory is no chart, Helm cannot run here, the chart cannot be read, or Helm
   *     refuses it ({@link Refused}); its message says which on one line
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
    ChartLinter.Rendering r;
    try {
      r = ChartLinter.render(chart, values.layered(), ChartLinter.setValues(config.charts(), values.set()),
          config.targets().kubernetes(), values.release(config.charts()), values.dependencyUpdate());
    } catch (ChartLinter.DependenciesFailed e) {
      throw dependenciesFailed(chart, e);
    }
    if (r instanceof ChartLinter.Refused refused) {
      throw new Refused("Helm cannot render " + chart + ": " + refused.message());
    }
    ChartLinter.Manifests m = (ChartLinter.Manifests) r;
    return new Manifests(m.parsed(), range -> {
      ChartLinter.Place place = m.place(range);
      return new Origin(place.file(), place.range().start());
    }, m.notes());
  }

  /**
   * A chart's templates read with their actions masked, as one stream of documents, for when Helm refuses it: what
   * {@code hooks} can still show. A value an action writes is unknown, and so is the place of a hook whose event or
   * weight an action writes; each such hook is named in a note.
   */
  public static Manifests masked(Path chart) throws IOException {
    StringBuilder text = new StringBuilder();
    TreeMap<Integer, String> starts = new TreeMap<>();
    int line = 0;
    for (Path file : InputFiles.walkChart(chart, n -> { })) {
      String name = chart.relativize(file).toString();
      if (!isTemplate(name)) {
        continue;
      }
      String source = Files.readString(file, StandardCharsets.UTF_8);
      // Each file its own document, as Helm's output would have it; the separator takes the line before it.
      text.append("---\n");
      starts.put(++line, file.toString());
      String masked = TemplateMask.mask(source);
      text.append(masked);
      if (!masked.endsWith("\n")) {
        text.append('\n');
      }
      line += (int) masked.chars().filter(c -> c == '\n').count() + (masked.endsWith("\n") ? 0 : 1);
    }
    ParsedFile parsed = new YamlReader().read(new SourceText(text.toString()), false);
    Function<Range, Origin> origins = range -> {
      Map.Entry<Integer, String> at = starts.floorEntry(range.start().line());
      return at == null ? new Origin(chart.resolve(CHART_YAML).toString(), range.start())
          : new Origin(at.getValue(), new Position(range.start().line() - at.getKey(), range.start().column()));
    };
    List<String> notes = new ArrayList<>();
    for (Resource r : HookDocument.of(chart.toString(), parsed).resources()) {
      for (String key : List.of(HelmAnnotations.HOOK, HelmAnnotations.WEIGHT)) {
        YScalar v = HelmAnnotations.annotation(r, key);
        if (v != null && v.value() != null && v.value().indexOf(TemplateMask.PLACEHOLDER) >= 0) {
          Origin o = origins.apply(v.range());
          notes.add(o.file() + ":" + (o.position().line() + 1) + ": a " + r.kind() + " whose " + key
              + " a template action writes is not placed");
          break;
        }
      }
    }
    return new Manifests(parsed, origins, notes);
  }

  /**
   * A named template file linted as a template: the masked reading leaves out a {@code define}'s body, which is
   * not output where it stands, so each {@code define} is read as a {@code with} of the same length, whose body
   * is. Findings are reported on the text as written.
   */
  private LintResult namedTemplates(String name, byte[] bytes, Config config) {
    String text = new String(bytes, StandardCharsets.UTF_8);
    String read = DEFINE.matcher(text).replaceAll("$1with  ");
    LintResult result = linter.lint(name, read, config);
    return new LintResult(linter.parse(name, text), result.findings(), result.suppressed(), result.failures());
  }

  /**
   * The named template files ({@code .tpl}) of a chart that define a manifest, a line of theirs starting with
   * {@code kind:}: a resource that only an {@code include} makes a document, which Helm would render. Hidden
   * folders are left out, as the walk leaves them out.
   */
  private static List<Path> manifestTemplates(Path dir) throws IOException {
    List<Path> tpl;
    try (Stream<Path> all = Files.walk(dir)) {
      tpl = all.filter(p -> p.getFileName().toString().endsWith(".tpl") && Files.isRegularFile(p)).toList();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    List<Path> out = new ArrayList<>();
    for (Path p : tpl) {
      String relative = dir.relativize(p).toString();
      if (relative.startsWith(".") || relative.contains("/.")) {
        continue;
      }
      try {
        if (MANIFEST_KIND.matcher(Files.readString(p, StandardCharsets.UTF_8)).find()) {
          out.add(p);
        }
      } catch (IOException e) {
        // A file that cannot be read as UTF-8 text is left out, as one the walk cannot read.
      }
    }
    return out;
  }

  /** Whether Helm reads a chart file as a template that renders: under a templates/ folder, not named _*. */
  private static boolean isTemplate(String relative) {
    Path p = Path.of(relative);
    return !p.getFileName().toString().startsWith("_") && (relative.startsWith("templates/")
        || relative.contains("/templates/"));
  }

  /** The chart's files linted one by one, each with its own configuration, unless excluded. */
  private List<LintedFile> oneByOne(Path dir, Scope scope, boolean notRendered, List<String> problems,
      List<String> notes) throws IOException, ConfigResolver.ConfigException {
    List<LintedFile> files = new ArrayList<>();
    List<Path> walked = new ArrayList<>(InputFiles.walkChart(dir, notes::add));
    if (notRendered) {
      walked.addAll(manifestTemplates(dir));
      walked.sort(null);
    }
    for (Path file : walked) {
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
      LintResult result = file.getFileName().toString().endsWith(".tpl") ? namedTemplates(file.toString(), bytes, c)
          : linter.lint(file.toString(), bytes, c);
      files.add(new LintedFile(file.toString(), result, Map.of()));
    }
    return files;
  }

  private static boolean hasRenderFailure(ChartLinter.ChartFile f) {
    return f.result().findings().stream().anyMatch(x -> x.ruleId().equals(HelmRenderFailed.ID));
  }
}
