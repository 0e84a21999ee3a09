package io.hooklens.chart;

import io.hooklens.chart.TemplateFiles.TemplateFile;
import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.LintResult;
import io.hooklens.core.engine.Linter;
import io.hooklens.core.engine.Version;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.yaml.ParseProblem;
import io.hooklens.core.yaml.ParsedFile;
import io.hooklens.core.yaml.Range;
import io.hooklens.core.yaml.SourceText;
import io.hooklens.core.yaml.TemplateMask;
import io.hooklens.core.yaml.YamlReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Lints a Helm chart as Helm installs it: renders it with real Helm once per values set, runs the
 * rules on the rendered manifests, and reports every finding on the template file and line it came
 * from, once, with the values sets that produce it. A values set Helm refuses is an HL005 finding
 * with Helm's message, on the file the message names.
 */
public final class ChartLinter {
  /**
   * What linting a chart found in one of its files.
   *
   * @param displayName the file's path as the user knows it (the chart's path as given, joined)
   * @param result the file's findings, positions in the file as written
   * @param valuesSets for each finding, the labels of the values sets that produce it, in render order
   */
  public record ChartFile(String displayName, LintResult result, Map<Finding, List<String>> valuesSets) {}

  /** Helm could not build a chart's dependencies; the message says why, with the chart's own paths. */
  public static final class DependenciesFailed extends IOException {
    DependenciesFailed(String message) {
      super(message);
    }
  }

  /** A place in a chart file as written: the file's name in reports and a range in it. */
  public record Place(String file, Range range) {}

  /** What Helm made of a chart with one set of values: manifests, or its refusal. */
  public sealed interface Rendering permits Manifests, Refused {}

  /** Helm's message when it refuses to render, with paths as the user knows them. */
  public record Refused(String message) implements Rendering {}

  /**
   * Helm's manifests, read as final YAML, each document under its {@code # Source:} header, hook
   * annotations as written; and for a place in them, the place in the chart it comes from, found as
   * for findings.
   */
  public static final class Manifests implements Rendering {
    private final ParsedFile parsed;
    private final ManifestMap map;
    private final String chartYaml;
    private final List<String> notes;

    private Manifests(ParsedFile parsed, ManifestMap map, String chartYaml, List<String> notes) {
      this.parsed = parsed;
      this.map = map;
      this.chartYaml = chartYaml;
      this.notes = List.copyOf(notes);
    }

    /** What Helm left out or was given in place of values, each after the file and line it is about. */
    public List<String> notes() {
      return notes;
    }

    public ParsedFile parsed() {
      return parsed;
    }

    /** Where a rendered range comes from; the chart's Chart.yaml for the rare place before any header. */
    public Place place(Range rendered) {
      Place p = map.place(rendered);
      return p != null ? p : new Place(chartYaml, Range.at(0, 0));
    }
  }


  /** How many times a values set is rendered again with placeholders, for values named one refusal after another. */
  private static final int PLACEHOLDER_RENDERS = 12;

  private final Linter linter;
  private final YamlReader reader = new YamlReader();

  public ChartLinter(Linter linter) {
    this.linter = linter;
  }

  /** Whether a directory is a chart: it holds a Chart.yaml. */
  public static boolean isChart(Path dir) {
    return Files.isRegularFile(dir.resolve("Chart.yaml"));
  }

  /**
   * Whether a chart is a library chart ({@code type: library}): Helm refuses to install one on its own and
   * renders its named templates only inside the charts that depend on it.
   */
  public static boolean isLibrary(Path dir) {
    return ChartCopy.chartMetadata(dir.resolve("Chart.yaml")).map(m -> "library".equals(m.string("type")))
        .orElse(false);
  }

  /**
   * Makes the helm binary a path or a name on the PATH stands for render every chart from now on; false, and
   * nothing changed, when it is no executable file.
   */
  public static boolean useHelm(String binary) {
    if (HelmBinary.find(binary).isEmpty()) {
      return false;
    }
    System.setProperty(HelmBinary.PROPERTY, binary);
    return true;
  }

  /** Why charts cannot be rendered in this process, or empty when they can. */
  public static Optional<String> unavailable() {
    return ChartRenderer.unavailable();
  }

  /**
   * Starts Helm's render worker ahead of the first render, so that its start (a JVM, then Helm's native library)
   * overlaps the caller's own work; nothing where Helm cannot run. A worker that cannot start is reported by the
   * render that needs it.
   */
  public static void prepare() {
    if (unavailable().isEmpty()) {
      try {
        ChartRenderer.prepare();
      } catch (IOException e) {
        // Said by the first render, which tries again.
      }
    }
  }

  /**
   * Lets up to {@code workers} renders run at once, each in a render worker of its own (a worker serves one render at
   * a time), for callers that lint charts side by side; never lowers what was allowed before.
   */
  public static void allowParallelRenders(int workers) {
    ChartRenderer.allowWorkers(workers);
  }

  /**
   * Loads, in this JVM, what the render worker loads, by rendering a chart with Helm here: for the launcher's
   * class-data-sharing archive, which the worker maps too. Unbounded, so only for charts of our own.
   */
  public static void warmUpWorker(Path chart) throws IOException {
    RenderWorker.warmUp(chart);
  }

  /**
   * The values sets a chart is rendered with: its values.yaml alone, then on top of it each
   * {@code ci/*-values.yaml} (as chart-testing does), then each values file given.
   */
  public static List<ValuesSet> valuesSets(Path chartDir, List<Path> valuesFiles) throws IOException {
    return valuesSets(chartDir, valuesFiles, Config.Charts.NONE);
  }

  /**
   * The values sets of {@link #valuesSets(Path, List)}, with the configured ones (relative to the chart,
   * skipped where the chart has no such file, and once only) before the values files given.
   */
  public static List<ValuesSet> valuesSets(Path chartDir, List<Path> valuesFiles, Config.Charts configured)
      throws IOException {
    List<ValuesSet> sets = new ArrayList<>(ownValuesSets(chartDir));
    for (String v : configured.values()) {
      Path f = chartDir.resolve(v).normalize();
      boolean listed = sets.stream().anyMatch(set -> set.file() != null && set.file().normalize().equals(f));
      if (Files.isRegularFile(f) && !listed) {
        sets.add(new ValuesSet(v, f));
      }
    }
    for (Path f : valuesFiles) {
      sets.add(new ValuesSet(f.toString(), f));
    }
    return sets;
  }

  /**
   * The values set on a render: the configured ones, each {@code KEY: VALUE} as {@code --set KEY=VALUE}, then
   * those given, which win.
   */
  public static SetValues setValues(Config.Charts configured, SetValues given) {
    List<String> set = new ArrayList<>();
    configured.set().forEach((k, v) -> set.add(k + "=" + v));
    set.addAll(given.set());
    return new SetValues(set, given.setString(), given.setFile());
  }

  private static List<ValuesSet> ownValuesSets(Path chartDir) throws IOException {
    List<ValuesSet> sets = new ArrayList<>();
    sets.add(ValuesSet.DEFAULTS);
    Path ci = chartDir.resolve("ci");
    if (Files.isDirectory(ci)) {
      try (Stream<Path> files = Files.list(ci)) {
        files.filter(p -> p.getFileName().toString().endsWith("-values.yaml") && Files.isRegularFile(p))
            .sorted()
            .forEach(p -> sets.add(new ValuesSet("ci/" + p.getFileName(), p)));
      }
    }
    return sets;
  }

  /**
   * Renders a chart once, as {@code helm template} does with {@code -f} for each values file in order and
   * the values set: for tools that need Helm's output rather than findings. A dependency missing from
   * {@code charts/} is left out, and a value Helm refuses to go without gets a placeholder; the manifests'
   * notes say so.
   */
  public static Rendering render(Path chartDir, List<Path> valuesFiles, SetValues setValues,
      Version kubernetes) throws IOException {
    return render(chartDir, valuesFiles, setValues, kubernetes, Release.DEFAULT, false);
  }

  /**
   * A render as {@link #render(Path, List, SetValues, Version)}, for a release, with the dependencies built first
   * when asked ({@link ChartCopy#of(Path, boolean)}).
   */
  public static Rendering render(Path chartDir, List<Path> valuesFiles, SetValues setValues,
      Version kubernetes, Release release, boolean buildDependencies) throws IOException {
    try (ChartCopy copy = ChartCopy.of(chartDir, buildDependencies)) {
      List<Path> copies = new ArrayList<>();
      for (Path f : valuesFiles) {
        copies.add(copy.values(new ValuesSet(f.toString(), f)));
      }
      Attempt a = attempt(copy, copies, setValues.forHelm(copy), kubernetes, release);
      if (!(a.last() instanceof ChartRenderer.Rendered rendered)) {
        return new Refused(refusal(((ChartRenderer.Failed) a.first()).message(), copy));
      }
      List<String> notes = new ArrayList<>();
      for (ChartCopy.Stub stub : copy.stubs()) {
        notes.add(stub.declaredIn().displayName() + ":" + (stub.line() + 1) + ": " + withoutDependency(stub));
      }
      if (!a.placeholders().isEmpty()) {
        notes.add(chartDir + ": " + withPlaceholders(a.placeholders()));
      }
      ParsedFile parsed = new YamlReader().read(new SourceText(rendered.manifests()), false);
      // The map reads every template while the copy still exists; it needs nothing from the copy later.
      return new Manifests(parsed, new ManifestMap(parsed, new TemplateFiles(copy)), copy.chartYaml().displayName(),
          notes);
    }
  }

  /**
   * A chart linted.
   *
   * @param files Chart.yaml first (with Helm's chart-level failures, the suppressed count and rule failures), then
   *     every file a rendered document or a failure came from, sorted by name
   * @param rendered how many values sets Helm rendered, in full or in part
   */
  public record Linted(List<ChartFile> files, int rendered) {}

  /**
   * Lints a chart. A dependency missing from {@code charts/} is left out of every rendering, and a values set Helm
   * refuses for a value it names is rendered again with a placeholder for it; each is an HL006 note, with the
   * values sets it applies to.
   *
   * @param layered values files on top of every values set's, as helm -f in order
   * @param setValues values set on every values set
   */
  public Linted lint(Path chartDir, List<Path> layered, List<ValuesSet> sets, SetValues setValues,
      Config chartConfig) throws IOException {
    return lint(chartDir, layered, sets, setValues, chartConfig, Release.DEFAULT, false);
  }

  /**
   * A lint as {@link #lint(Path, List, List, SetValues, Config)}, for a release, with the dependencies built first
   * when asked ({@link ChartCopy#of(Path, boolean)}).
   */
  public Linted lint(Path chartDir, List<Path> layered, List<ValuesSet> sets, SetValues setValues,
      Config chartConfig, Release release, boolean buildDependencies) throws IOException {
    try (ChartCopy copy = ChartCopy.of(chartDir, buildDependencies)) {
      Config config = chartConfig.withChartCrds(copy.crdNames());
      Collector out = new Collector(copy);
      SetValues.ForHelm forHelm = setValues.forHelm(copy);
      List<Path> layeredCopies = new ArrayList<>();
      for (Path f : layered) {
        layeredCopies.add(copy.values(new ValuesSet(f.toString(), f)));
      }
      int renderedSets = 0;
      Map<Path, ValuesPlaces.ValuesFile> valuesRead = new HashMap<>();
      for (ValuesSet set : sets) {
        Path valuesFile = set.file() == null ? null : copy.values(set);
        List<Path> files = new ArrayList<>();
        if (valuesFile != null) {
          files.add(valuesFile);
        }
        files.addAll(layeredCopies);
        Attempt a = attempt(copy, files, forHelm, config.targets().kubernetes(), release);
        if (a.first() instanceof ChartRenderer.Failed failed) {
          failed(failed.message(), valuesFile, set, copy, config, out);
        }
        if (a.last() instanceof ChartRenderer.Rendered rendered) {
          renderedSets++;
          ValuesPlaces values = valuesPlaces(copy, set, layered, valuesRead);
          List<Placed> placed = rendered(rendered.manifests(), copy, config, out, values);
          Render render = new Render(copy, a.files(), forHelm, config, out, values);
          Map<String, String> notes = new HashMap<>();
          List<Placed> elsewhere = new ArrayList<>();
          releaseBound(placed, render, release, notes);
          namespaceBound(placed, render, release, notes, elsewhere);
          for (Placed p : placed) {
            out.add(p.file(), noted(p.finding(), notes.get(p.key())), set);
          }
          for (Placed p : elsewhere) {
            out.add(p.file(), noted(p.finding(), notes.get(p.key())), set);
          }
          skipped(rendered.skippedHooks(), set, copy, config, out);
          partial(a, valuesFile, set, copy, config, out);
        }
      }
      return new Linted(out.results(), renderedSets);
    }
  }

  /**
   * A values set rendered: Helm's first answer, and its last after placeholders for the values its refusals named
   * (the first again when there were none), with the values files of the last.
   */
  private record Attempt(ChartRenderer.Rendering first, ChartRenderer.Rendering last,
      List<Placeholders.Placeholder> placeholders, List<Path> files) {}

  /** Renders, and while Helm refuses for a value it names, again with a placeholder for it, a few times at most. */
  private static Attempt attempt(ChartCopy copy, List<Path> files, SetValues.ForHelm forHelm, Version kubernetes,
      Release release) throws IOException {
    ChartRenderer.Rendering first = ChartRenderer.render(copy, files, forHelm, kubernetes, release);
    ChartRenderer.Rendering last = first;
    List<Path> lastFiles = files;
    List<Placeholders.Placeholder> given = new ArrayList<>();
    for (int i = 0; i < PLACEHOLDER_RENDERS && last instanceof ChartRenderer.Failed failed; i++) {
      List<Placeholders.Placeholder> more = Placeholders.named(failed.message()).stream()
          .filter(p -> !given.contains(p)).toList();
      if (more.isEmpty()) {
        break;
      }
      given.addAll(more);
      List<Path> withPlaceholders = new ArrayList<>(files);
      withPlaceholders.add(copy.value(Placeholders.valuesFile(given).getBytes(StandardCharsets.UTF_8)));
      last = ChartRenderer.render(copy, withPlaceholders, forHelm, kubernetes, release);
      lastFiles = withPlaceholders;
    }
    return new Attempt(first, last, List.copyOf(given), List.copyOf(lastFiles));
  }

  /** Helm's refusal as reported; naming the dependencies left out, which may be why the rest did not render. */
  private static String refusal(String raw, ChartCopy copy) {
    String message = RenderFailure.message(raw, copy);
    if (copy.stubs().isEmpty()) {
      return message;
    }
    return message + " (rendered without dependency " + String.join(", ", copy.stubs().stream()
        .map(ChartCopy.Stub::name).toList()) + ", not in charts/; run helm dependency build, or give --dependency-update)";
  }

  private static String withoutDependency(ChartCopy.Stub stub) {
    return "rendered without dependency " + stub.name() + " (not in charts/; run helm dependency build, or give --dependency-update)";
  }

  private static String withPlaceholders(List<Placeholders.Placeholder> given) {
    return "rendered with placeholder for " + String.join(", ", given.stream().map(Placeholders.Placeholder::name)
        .toList()) + " (Helm refused these values without it)";
  }

  /** HL006 notes for a values set Helm rendered in part: on each stubbed dependency, and where Helm refused. */
  private void partial(Attempt a, Path valuesFile, ValuesSet set, ChartCopy copy, Config config, Collector out)
      throws IOException {
    Map<ChartCopy.Origin, List<ParseProblem>> notes = new LinkedHashMap<>();
    for (ChartCopy.Stub stub : copy.stubs()) {
      SourceText text = new SourceText(stub.declaredIn().text());
      notes.computeIfAbsent(stub.declaredIn(), o -> new ArrayList<>()).add(new ParseProblem(
          ParseProblem.Kind.PARTIAL_RENDER, RenderFailure.range(text, new RenderFailure.Location(stub.declaredIn(),
              stub.line(), -1), ""), withoutDependency(stub)));
    }
    if (!a.placeholders().isEmpty() && a.first() instanceof ChartRenderer.Failed failed) {
      RenderFailure.Location at = RenderFailure.locate(failed.message(), copy, valuesFile);
      SourceText text = new SourceText(at.origin().text());
      notes.computeIfAbsent(at.origin(), o -> new ArrayList<>()).add(new ParseProblem(ParseProblem.Kind.PARTIAL_RENDER,
          RenderFailure.range(text, at, RenderFailure.message(failed.message(), copy)),
          withPlaceholders(a.placeholders())));
    }
    for (Map.Entry<ChartCopy.Origin, List<ParseProblem>> e : notes.entrySet()) {
      problems(e.getKey(), new SourceText(e.getKey().text()), e.getValue(), set, config, out);
    }
  }

  /** The values files of one rendering, in the order they win: -f files last to first, the set's, values.yaml. */
  private static ValuesPlaces valuesPlaces(ChartCopy copy, ValuesSet set, List<Path> layered,
      Map<Path, ValuesPlaces.ValuesFile> read) throws IOException {
    List<ValuesPlaces.ValuesFile> files = new ArrayList<>();
    for (int i = layered.size() - 1; i >= 0; i--) {
      files.add(valuesFile(copy, layered.get(i), layered.get(i).toString(), read));
    }
    if (set.file() != null) {
      files.add(valuesFile(copy, set.file(), set.label(), read));
    }
    ChartCopy.Origin defaults = copy.file("values.yaml");
    if (defaults != null) {
      files.add(read.computeIfAbsent(Path.of("values.yaml"), p -> ValuesPlaces.read(defaults.displayName(),
          defaults.decoded() == null ? "" : defaults.decoded())));
    }
    return new ValuesPlaces(files);
  }

  /** A values file by the name reports give it: a chart file's, else the path as given. */
  private static ValuesPlaces.ValuesFile valuesFile(ChartCopy copy, Path file, String label,
      Map<Path, ValuesPlaces.ValuesFile> read) throws IOException {
    Path abs = file.toAbsolutePath().normalize();
    ValuesPlaces.ValuesFile known = read.get(abs);
    if (known != null) {
      return known;
    }
    ChartCopy.Origin inChart = copy.inChart(abs);
    String name = inChart != null ? inChart.displayName() : label;
    ValuesPlaces.ValuesFile f = ValuesPlaces.read(name, Files.readString(file, StandardCharsets.UTF_8));
    read.put(abs, f);
    return f;
  }

  /** A finding of one render on the chart file it is reported in. */
  private record Placed(TemplateFile file, Finding finding) {
    /** The finding without its message, which names what the release name or namespace changes. */
    String key() {
      return file.displayName() + "\n" + finding.ruleId() + "\n" + finding.range();
    }
  }

  /** What a render of a values set needs to be rendered again for another release. */
  private record Render(ChartCopy copy, List<Path> files, SetValues.ForHelm forHelm, Config config, Collector out,
      ValuesPlaces values) {}

  /**
   * Notes the findings of one render that hold only for the release name it was rendered for: those not found
   * again when the chart is rendered for another release name (the chart's own, as charts are often installed),
   * in the same namespace. Only a render with a finding that names the release is rendered again, since a name
   * computed from the release name is what such a finding names.
   */
  private void releaseBound(List<Placed> placed, Render r, Release release, Map<String, String> notes)
      throws IOException {
    if (placed.stream().noneMatch(p -> names(p.finding().message(), release.name()))) {
      return;
    }
    String other = otherName(r.copy(), release.name());
    List<Placed> again = renderFor(r, new Release(other, release.namespace()));
    if (again == null) {
      return;
    }
    Set<String> found = keys(again);
    for (Placed p : placed) {
      if (!found.contains(p.key())) {
        note(notes, p.key(), "holds for release name \"" + release.name() + "\"; not for release name \"" + other
            + "\"");
      }
    }
  }

  /**
   * Notes the findings that depend on the namespace alone: rendered again for another namespace (the chart's name,
   * as charts are often installed), with the same release name, a finding not found again holds only for the
   * namespace linted, and one found only then holds for the other, and is added with a note that says so. Only a
   * render with a finding that names the namespace, or of a chart whose templates branch on
   * {@code .Release.Namespace}, is rendered again.
   */
  private void namespaceBound(List<Placed> placed, Render r, Release release, Map<String, String> notes,
      List<Placed> elsewhere) throws IOException {
    if (!r.copy().branchesOnNamespace()
        && placed.stream().noneMatch(p -> names(p.finding().message(), release.namespace()))) {
      return;
    }
    String other = otherName(r.copy(), release.namespace());
    List<Placed> again = renderFor(r, new Release(release.name(), other));
    if (again == null) {
      return;
    }
    Set<String> found = keys(again);
    Set<String> linted = keys(placed);
    for (Placed p : placed) {
      if (!found.contains(p.key())) {
        note(notes, p.key(), "holds for namespace \"" + release.namespace() + "\"; not for namespace \"" + other
            + "\"");
      }
    }
    for (Placed p : again) {
      if (!linted.contains(p.key())) {
        note(notes, p.key(), "holds for namespace \"" + other + "\"; not for namespace \"" + release.namespace()
            + "\", the one linted");
        elsewhere.add(p);
      }
    }
  }

  /** The findings of a render for another release, or null when Helm refuses it. */
  private List<Placed> renderFor(Render r, Release release) throws IOException {
    ChartRenderer.Rendering again = ChartRenderer.render(r.copy(), r.files(), r.forHelm(),
        r.config().targets().kubernetes(), release);
    return again instanceof ChartRenderer.Rendered rendered
        ? rendered(rendered.manifests(), r.copy(), r.config(), r.out(), r.values()) : null;
  }

  private static Set<String> keys(List<Placed> placed) {
    Set<String> keys = new HashSet<>();
    placed.forEach(p -> keys.add(p.key()));
    return keys;
  }

  private static void note(Map<String, String> notes, String key, String note) {
    notes.merge(key, note, (a, b) -> a + "; " + b);
  }

  private static Finding noted(Finding f, String note) {
    return note == null ? f : new Finding(f.ruleId(), f.ruleName(), f.severity(), f.message() + " (" + note + ")",
        f.range(), f.document(), f.resource(), f.related());
  }

  /**
   * Whether a message names a release or namespace: the name as part of a resource name, path or DNS name
   * ({@code Job/release-x}, {@code x.default.svc}), not a word of the sentence ("defaults to").
   */
  private static boolean names(String message, String name) {
    for (int i = message.indexOf(name); i >= 0; i = message.indexOf(name, i + 1)) {
      char before = i == 0 ? ' ' : message.charAt(i - 1);
      int end = i + name.length();
      char after = end < message.length() ? message.charAt(end) : ' ';
      boolean joined = before == '-' || before == '/' || before == '.' || after == '-'
          || after == '.' && end + 1 < message.length() && Character.isLetterOrDigit(message.charAt(end + 1));
      if (joined && !Character.isLetterOrDigit(before) && !Character.isLetterOrDigit(after)) {
        return true;
      }
    }
    return false;
  }

  /** The other name a chart is rendered with: the chart's name, unless that is the one given or no name. */
  private static String otherName(ChartCopy copy, String given) throws IOException {
    String name = copy.chartName();
    boolean usable = name != null && !name.equals(given) && name.length() <= 53
        && name.matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    return usable ? name : given.equals("hooklens-check") ? "hooklens-other" : "hooklens-check";
  }

  private List<Placed> rendered(String manifests, ChartCopy copy, Config config, Collector out,
      ValuesPlaces values) throws IOException {
    List<Placed> placed = new ArrayList<>();
    // Rendered output is final YAML: a "{{" in it is text (an alert template in a ConfigMap), never an action.
    ParsedFile parsed = reader.read(new SourceText(manifests), false);
    LintResult result = linter.lint(copy.chartYaml().displayName(), parsed, config);
    out.chartLevel(result);
    ManifestMap map = new ManifestMap(parsed, out.templates());
    for (Finding f : result.findings()) {
      RenderedChart.Section s = map.section(f.range().start().line());
      if (s == null) {
        // Helm writes nothing before its first header; should a finding start there, it is not lost.
        placed.add(new Placed(out.chartYaml(), new Finding(f.ruleId(), f.ruleName(), f.severity(), f.message(),
            Range.at(0, 0), 0, null, List.of())));
        continue;
      }
      SourceMapper mapper = map.mapper(s);
      SourceMapper.Mapped at = mapper.map(f.range());
      TemplateFile template = map.template(s);
      ValuesPlaces.Found inValues = at.unwritten() == null ? null : values.find(at.unwritten());
      SourceText templateText = template.document().source();
      HelperPlaces.Found inHelper = at.unwritten() == null || inValues != null ? null
          : out.helpers().find(templateText.text(), at.unwritten());
      boolean moved = inValues != null || inHelper != null;
      // Elsewhere, the template's places are in another file; on the template, in the same one.
      String relatedFile = moved ? template.displayName() : null;
      List<Finding.Related> related = new ArrayList<>();
      if (inValues != null) {
        related.add(new Finding.Related(at.range(), "the template writes the value here", relatedFile));
      }
      if (inHelper != null) {
        Range inclusion = HelperPlaces.inclusion(templateText, inHelper.includedAs(), at.range().startLine());
        related.add(inclusion == null ? new Finding.Related(at.range(), "the template writes the helper's text here",
            relatedFile) : new Finding.Related(inclusion, "the template includes the helper here", relatedFile));
      }
      for (Finding.Related r : f.related()) {
        if (mapper.covers(r.range())) {
          related.add(new Finding.Related(mapper.map(r.range()).range(), r.message(), relatedFile));
        }
      }
      int document = moved ? 0 : at.document();
      Finding.ResourceRef ref = f.resource() == null ? null : new Finding.ResourceRef(f.resource().apiVersion(),
          f.resource().kind(), f.resource().name(), document);
      TemplateFile file = inValues != null ? out.file(inValues.file().displayName(), inValues.file().document())
          : inHelper != null ? out.helperFile(inHelper.file()) : template;
      Range range = inValues != null ? inValues.range() : inHelper != null ? inHelper.range() : at.range();
      placed.add(new Placed(file, new Finding(f.ruleId(), f.ruleName(), f.severity(), f.message(), range, document,
          ref, List.copyOf(related))));
    }
    return placed;
  }

  private void failed(String raw, Path valuesFile, ValuesSet set, ChartCopy copy, Config config, Collector out)
      throws IOException {
    RenderFailure.Location at = RenderFailure.locate(raw, copy, valuesFile);
    String message = refusal(raw, copy);
    SourceText text = new SourceText(at.origin().text());
    problems(at.origin(), text, List.of(new ParseProblem(ParseProblem.Kind.RENDER,
        RenderFailure.range(text, at, message), message)), set, config, out);
  }

  /** Resources Helm left out for an unknown event in a hook annotation a template action wrote: on Chart.yaml. */
  private void skipped(List<String> hooks, ValuesSet set, ChartCopy copy, Config config, Collector out)
      throws IOException {
    if (hooks.isEmpty()) {
      return;
    }
    SourceText text = new SourceText(copy.chartYaml().text());
    Range firstLine = RenderFailure.range(text, new RenderFailure.Location(copy.chartYaml(), 0, -1), "");
    problems(copy.chartYaml(), text, hooks.stream()
        .map(h -> new ParseProblem(ParseProblem.Kind.SKIPPED_HOOK, firstLine, h)).toList(), set, config, out);
  }

  /** Lints a chart file whose only content for the rules is what Helm said about it. */
  private void problems(ChartCopy.Origin origin, SourceText text, List<ParseProblem> problems, ValuesSet set,
      Config config, Collector out) {
    ParsedFile parsed = new ParsedFile(text, List.of(), problems, TemplateMask.needsMask(text.text()), new BitSet());
    LintResult result = linter.lint(origin.displayName(), parsed, config);
    out.chartLevel(result);
    TemplateFile file = out.file(origin.displayName(), result.document());
    for (Finding f : result.findings()) {
      out.add(file, f, set);
    }
  }

  /** Findings of all values sets, merged by file, place, rule and message. */
  private final class Collector {
    private record Key(String file, Range range, String ruleId, String message) {}

    private final TemplateFiles templates;
    private final HelperPlaces helpers;
    private final Map<Key, Finding> findings = new LinkedHashMap<>();
    private final Map<Key, List<String>> sets = new HashMap<>();
    private final Map<String, LintResult.RuleFailure> failures = new LinkedHashMap<>();
    private final TemplateFile chartYaml;
    private int suppressed;

    Collector(ChartCopy copy) throws IOException {
      this.templates = new TemplateFiles(copy);
      this.helpers = new HelperPlaces(copy);
      ChartCopy.Origin o = copy.chartYaml();
      SourceText text = new SourceText(o.text());
      this.chartYaml = file(o.displayName(),
          HookDocument.of(o.displayName(), new ParsedFile(text, List.of(), List.of())));
    }

    TemplateFile chartYaml() {
      return chartYaml;
    }

    TemplateFile file(String displayName, HookDocument document) {
      return templates.file(displayName, document);
    }

    TemplateFiles templates() {
      return templates;
    }

    HelperPlaces helpers() {
      return helpers;
    }

    /** A file with named templates, for findings placed in it; its text is enough for them. */
    TemplateFile helperFile(ChartCopy.Origin origin) throws IOException {
      String text = origin.text();
      return file(origin.displayName(),
          HookDocument.of(origin.displayName(), new ParsedFile(new SourceText(text), List.of(), List.of())));
    }

    /** What a lint of one values set says about the chart as a whole. */
    void chartLevel(LintResult result) {
      // A finding suppressed in one values set is usually suppressed in all: count the largest set's.
      suppressed = Math.max(suppressed, result.suppressed());
      for (LintResult.RuleFailure f : result.failures()) {
        failures.putIfAbsent(f.ruleId(), f);
      }
    }

    void add(TemplateFile file, Finding f, ValuesSet set) {
      Key key = new Key(file.displayName(), f.range(), f.ruleId(), f.message());
      findings.putIfAbsent(key, f);
      List<String> labels = sets.computeIfAbsent(key, k -> new ArrayList<>());
      if (!labels.contains(set.label())) {
        labels.add(set.label());
      }
    }

    List<ChartFile> results() {
      Map<String, Map<Finding, List<String>>> byFile = new HashMap<>();
      for (Map.Entry<Key, Finding> e : findings.entrySet()) {
        byFile.computeIfAbsent(e.getKey().file(), k -> new HashMap<>())
            .put(e.getValue(), List.copyOf(sets.get(e.getKey())));
      }
      List<ChartFile> out = new ArrayList<>();
      out.add(result(chartYaml, byFile, suppressed, List.copyOf(failures.values())));
      for (TemplateFile t : templates.files().values()) {
        if (t != chartYaml) {
          out.add(result(t, byFile, 0, List.of()));
        }
      }
      return out;
    }

    private ChartFile result(TemplateFile t, Map<String, Map<Finding, List<String>>> byFile, int suppressedCount,
        List<LintResult.RuleFailure> ruleFailures) {
      Map<Finding, List<String>> mine = byFile.getOrDefault(t.displayName(), Map.of());
      List<Finding> sorted = new ArrayList<>(mine.keySet());
      sorted.sort(Finding.ORDER);
      return new ChartFile(t.displayName(), new LintResult(t.document(), List.copyOf(sorted), suppressedCount,
          ruleFailures), Map.copyOf(mine));
    }
  }
}
