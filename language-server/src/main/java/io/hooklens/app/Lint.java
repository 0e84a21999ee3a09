package io.hooklens.app;

import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.Fixes;
import io.hooklens.core.engine.Linter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Linting paths, for {@code hooklens lint} and the editor's workspace lint alike: files, directories walked by
 * {@link InputFiles} (charts in them linted through {@link ChartLint}), each file with the configuration
 * {@link ConfigResolver} finds for it and its excludes applied to what a walk finds. Each file's result goes to
 * the {@link Sink} as soon as it is linted, and its model is dropped, so memory follows the largest file (a
 * chart's files together), not the number of files.
 */
public final class Lint {
  private static final String CHART_YAML = "Chart.yaml";

  /**
   * How to lint.
   *
   * @param adjust what the face puts on top of each configuration file (command-line options, editor settings)
   * @param values the values charts are rendered with
   * @param fix apply the fixes marked safe to each file before its findings are reported
   */
  public record Options(UnaryOperator<Config> adjust, ChartLint.Values values, boolean fix) {}

  /** Where what the lint finds goes, in order. */
  public interface Sink {
    /** A file's findings. */
    void file(LintedFile file);

    /** An input that could not be linted, with why; the lint goes on with the others. */
    void problem(String message);

    /** Something the user may want to know, such as a file skipped. */
    void note(String message);

    /** Fixes were written to a file. */
    default void fixed(String name, int count) {}
  }

  /** Text fixed, and how many problems the fixes solved. */
  public record Fixed(String text, int count) {}

  private final Linter linter;
  private final ChartLint charts;
  private final ConfigResolver configs;
  private final Options options;
  private final Sink sink;
  private boolean toldChartsDoNotRender;

  public Lint(Linter linter, ConfigResolver configs, Options options, Sink sink) {
    this.linter = linter;
    this.charts = new ChartLint(linter);
    this.configs = configs;
    this.options = options;
    this.sink = sink;
  }

  /**
   * Lints text that has no file, such as standard input, under a name whose directory finds its configuration.
   *
   * @return with {@link Options#fix}, the text fixed; otherwise, or when the text cannot be fixed, empty
   */
  public Optional<Fixed> text(String name, byte[] bytes) throws ConfigResolver.ConfigException {
    Config c = options.adjust().apply(configs.forFile(Path.of(name)).config());
    String text = options.fix() ? Linter.decode(bytes).text() : null;
    if (text == null) {
      sink.file(new LintedFile(name, linter.lint(name, bytes, c)));
      return Optional.empty();
    }
    Fixes.Outcome outcome = Fixes.fixSafe(linter, name, text, c);
    sink.file(new LintedFile(name, outcome.result()));
    return Optional.of(new Fixed(outcome.text(), outcome.fixed()));
  }

  /**
   * Lints a path: a file, a chart (its directory or its Chart.yaml), or a directory to walk. A path named is not
   * subject to excludes, what a walk finds is.
   */
  public void path(Path path) throws ConfigResolver.ConfigException {
    Optional<String> unreadable = InputFiles.unreadable(path);
    if (unreadable.isPresent()) {
      sink.problem(path + ": " + unreadable.get());
      return;
    }
    if (path.getFileName() != null && path.getFileName().toString().equals(CHART_YAML)
        && Files.isRegularFile(path)) {
      chart(path.getParent() == null ? Path.of(".") : path.getParent(), false);
      return;
    }
    if (!Files.isDirectory(path)) {
      file(path, false, true);
      return;
    }
    List<Path> files;
    try {
      files = InputFiles.walk(path, sink::note);
    } catch (IOException e) {
      sink.problem("cannot read directory " + path + ": " + e.getMessage());
      return;
    }
    if (files.isEmpty()) {
      sink.problem(path + ": no .yaml, .yml or .json files found");
      return;
    }
    for (Path file : files) {
      boolean walked = !file.equals(path);
      if (Files.isDirectory(file) && ChartLint.isChart(file)) {
        chart(file, walked);
      } else {
        file(file, true, true);
      }
    }
  }

  /**
   * Lints one file on its own, fixing it first when asked; its result is reported when {@code report}.
   *
   * @return whether the file could be read, and written when fixed
   */
  private boolean file(Path file, boolean walked, boolean report) throws ConfigResolver.ConfigException {
    ConfigResolver.Resolved resolved = configs.forFile(file);
    if (walked && resolved.excludes(file)) {
      return true;
    }
    Linter.Decoded decoded;
    try {
      // Decoded as read: the bytes of a large file are not kept beside its text and model while it is linted.
      decoded = Linter.decode(Files.readAllBytes(file));
    } catch (NoSuchFileException e) {
      sink.problem(file + ": no such file");
      return false;
    } catch (IOException | OutOfMemoryError e) {
      sink.problem("cannot read " + file + ": " + IoErrors.reason(e));
      return false;
    }
    String name = file.toString();
    Config c = options.adjust().apply(resolved.config());
    String text = options.fix() ? decoded.text() : null;
    if (text == null) {
      sink.file(new LintedFile(name, linter.lint(name, decoded, c)));
      return true;
    }
    Fixes.Outcome outcome = Fixes.fixSafe(linter, name, text, c);
    if (outcome.fixed() > 0) {
      try {
        AtomicFiles.write(file, outcome.text().getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        sink.problem("cannot write " + file + ": " + IoErrors.reason(e));
        return false;
      }
      sink.fixed(name, outcome.fixed());
    }
    if (report) {
      sink.file(new LintedFile(name, outcome.result()));
    }
    return true;
  }

  /**
   * Lints a chart ({@link ChartLint}); the configuration is the one of its Chart.yaml, and in a directory walk its
   * excludes apply to the chart and to each of its files.
   */
  private void chart(Path dir, boolean walked) throws ConfigResolver.ConfigException {
    Path chartYaml = dir.resolve(CHART_YAML);
    ConfigResolver.Resolved resolved = configs.forFile(chartYaml);
    if (walked && resolved.excludes(chartYaml)) {
      return;
    }
    if (options.fix() && !fixChartFiles(dir)) {
      return;
    }
    ChartLint.Outcome outcome;
    try {
      outcome = charts.lint(dir, options.values(), options.adjust().apply(resolved.config()),
          scope(resolved, walked));
    } catch (ChartLint.DependenciesFailed e) {
      sink.problem(e.getMessage());
      return;
    } catch (IOException e) {
      sink.problem("cannot read chart " + dir + ": " + IoErrors.reason(e));
      return;
    }
    outcome.helmUnavailable().filter(why -> !toldChartsDoNotRender).ifPresent(why -> {
      toldChartsDoNotRender = true;
      sink.note("charts are linted template by template, not rendered: " + why);
    });
    outcome.notes().forEach(sink::note);
    outcome.problems().forEach(sink::problem);
    outcome.files().forEach(sink::file);
  }

  /** A chart's files as a walk takes them: each its own configuration, excludes of a walk applied. */
  private ChartLint.Scope scope(ConfigResolver.Resolved chart, boolean walked) {
    return new ChartLint.Scope() {
      @Override
      public Optional<Config> forFile(Path file) throws ConfigResolver.ConfigException {
        ConfigResolver.Resolved r = configs.forFile(file);
        return r.excludes(file) ? Optional.empty() : Optional.of(options.adjust().apply(r.config()));
      }

      @Override
      public boolean excludes(Path file) {
        return walked && chart.excludes(file);
      }
    };
  }

  /**
   * Fixes a chart's files one by one before it is rendered: templates are read with their actions masked, and
   * only fixes on lines free of actions are kept (the engine's TemplateFixes), never ones computed on Helm's
   * output. What remains is reported from the rendering, as without fixing.
   *
   * @return whether every file could be read and written
   */
  private boolean fixChartFiles(Path dir) throws ConfigResolver.ConfigException {
    List<Path> files;
    try {
      files = InputFiles.walkChart(dir, sink::note);
    } catch (IOException e) {
      sink.problem("cannot read directory " + dir + ": " + e.getMessage());
      return false;
    }
    boolean fixed = true;
    for (Path file : files) {
      fixed &= file(file, true, false);
    }
    return fixed;
  }
}
