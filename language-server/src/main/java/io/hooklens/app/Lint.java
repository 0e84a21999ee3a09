package io.hooklens.app;

import io.hooklens.chart.ChartLinter;
import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.Fixes;
import io.hooklens.core.engine.Linter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Linting paths, for {@code hooklens lint} and the editor's workspace lint alike: files, directories walked by
 * {@link InputFiles} (charts in them linted through {@link ChartLint}), each file with the configuration
 * {@link ConfigResolver} finds for it and its excludes applied to what a walk finds. Each file's result goes to
 * the {@link Sink} as soon as it is linted, and its model is dropped, so memory follows the largest file (a
 * chart's files together), not the number of files.
 *
 * <p>With {@link Options#jobs} above one, the files and charts of a walk are linted on that many threads (charts
 * rendered in as many render workers), and what each tells the sink is held until the inputs before it have told
 * theirs: the sink sees exactly what it sees with one job, in the same order, while a bounded number of inputs are
 * linted ahead of it.
 */
public final class Lint {
  private static final String CHART_YAML = "Chart.yaml";
  /**
   * Inputs under way, or linted and waiting for their turn, a job: enough that a chart that takes long keeps no job
   * waiting while the inputs after it are linted (with two a job, 100 charts on two cores took a third longer).
   */
  private static final int AHEAD_PER_JOB = 16;

  /**
   * How to lint.
   *
   * @param adjust what the face puts on top of each configuration file (command-line options, editor settings)
   * @param values the values charts are rendered with
   * @param fix apply the fixes marked safe to each file before its findings are reported
   * @param jobs how many inputs of a walk are linted at once, at least one
   */
  public record Options(UnaryOperator<Config> adjust, ChartLint.Values values, boolean fix, int jobs) {
    public Options {
      if (jobs < 1) {
        throw new IllegalArgumentException("jobs must be at least 1, not " + jobs);
      }
    }

    /** One input at a time. */
    public Options(UnaryOperator<Config> adjust, ChartLint.Values values, boolean fix) {
      this(adjust, values, fix, 1);
    }
  }

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
    paths(List.of(path));
  }

  /** Lints paths as {@link #path} does, one after the other, their inputs side by side with {@link Options#jobs}. */
  public void paths(List<Path> paths) throws ConfigResolver.ConfigException {
    Inputs inputs = new Inputs(paths.iterator());
    if (options.jobs() == 1) {
      while (inputs.hasNext()) {
        Input in = inputs.next();
        replay(in.told() != null ? in.told() : unit(in));
      }
    } else {
      inOrder(inputs);
    }
  }

  /**
   * One input: a file or a chart to lint ({@code walked} when a walk found it), or what was found of a named path
   * before linting it (a note or a problem of its walk), told in its turn.
   */
  private record Input(Path path, boolean walked, Recorded told) {}

  /** The inputs of the paths, in order; a directory is walked when its turn comes. */
  private static final class Inputs implements Iterator<Input> {
    private final Iterator<Path> paths;
    private final Deque<Input> pending = new ArrayDeque<>();

    Inputs(Iterator<Path> paths) {
      this.paths = paths;
    }

    @Override
    public boolean hasNext() {
      while (pending.isEmpty() && paths.hasNext()) {
        expand(paths.next());
      }
      return !pending.isEmpty();
    }

    @Override
    public Input next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return pending.poll();
    }

    private void expand(Path path) {
      Recorded told = new Recorded();
      Optional<String> unreadable = InputFiles.unreadable(path);
      if (unreadable.isPresent()) {
        told.problem(path + ": " + unreadable.get());
      } else if (path.getFileName() != null && path.getFileName().toString().equals(CHART_YAML)
          && Files.isRegularFile(path)) {
        pending.add(new Input(path.getParent() == null ? Path.of(".") : path.getParent(), false, null));
      } else if (!Files.isDirectory(path)) {
        pending.add(new Input(path, false, null));
      } else {
        walk(path, told);
      }
      if (!told.calls.isEmpty()) {
        pending.addFirst(new Input(null, false, told));
      }
    }

    private void walk(Path dir, Recorded told) {
      List<Path> files;
      try {
        files = InputFiles.walk(dir, told::note);
      } catch (IOException e) {
        told.problem("cannot read directory " + dir + ": " + e.getMessage());
        return;
      }
      if (files.isEmpty()) {
        told.problem(dir + ": no .yaml, .yml or .json files found");
      }
      for (Path file : files) {
        pending.add(new Input(file, !file.equals(dir), null));
      }
    }
  }

  /** Lints one input, a file or a chart, recording what it tells the sink. */
  private Recorded unit(Input input) {
    Recorded r = new Recorded();
    try {
      if (Files.isDirectory(input.path()) && ChartLint.isChart(input.path())) {
        chart(input.path(), input.walked(), r);
      } else {
        file(input.path(), input.walked(), true, r);
      }
    } catch (ConfigResolver.ConfigException | RuntimeException | Error e) {
      // Raised where the input's turn comes, after what it told the sink before, as when linted alone.
      r.failure = e;
    }
    return r;
  }

  /** Tells the sink what an input recorded, then raises what stopped it. */
  private void replay(Recorded r) throws ConfigResolver.ConfigException {
    r.calls.forEach(call -> call.accept(sink));
    if (r.failure instanceof ConfigResolver.ConfigException e) {
      throw e;
    } else if (r.failure instanceof RuntimeException e) {
      throw e;
    } else if (r.failure instanceof Error e) {
      throw e;
    }
  }

  /**
   * Lints the inputs on {@link Options#jobs} threads and replays them in order. The inputs under way, or linted and
   * waiting for their turn, are bounded, so that memory does not follow their number: {@link #AHEAD_PER_JOB} a job,
   * and files of {@link #aheadBytes} together at most, beyond the one whose turn it is. A configuration that cannot
   * be read is met before the input it governs starts, so that no input after it is linted (or fixed), as with one
   * job.
   */
  private void inOrder(Iterator<Input> inputs) throws ConfigResolver.ConfigException {
    int jobs = options.jobs();
    ChartLinter.allowParallelRenders(jobs);
    ExecutorService pool = Executors.newFixedThreadPool(jobs, new ThreadFactory() {
      private int n;

      @Override
      public synchronized Thread newThread(Runnable r) {
        // Daemons: an interrupted lint ends with the JVM; the render workers end with it too.
        Thread t = new Thread(r, "hooklens-lint-" + ++n);
        t.setDaemon(true);
        return t;
      }
    });
    long budget = aheadBytes();
    Deque<Ahead> window = new ArrayDeque<>();
    long bytes = 0;
    Input next = null;
    try {
      ConfigResolver.ConfigException stop = null;
      while (true) {
        while (stop == null && window.size() < AHEAD_PER_JOB * jobs && (next != null || inputs.hasNext())) {
          Input in = next != null ? next : inputs.next();
          next = null;
          if (in.told() != null) {
            window.add(new Ahead(CompletableFuture.completedFuture(in.told()), 0));
            continue;
          }
          long size = size(in.path());
          if (!window.isEmpty() && bytes + size > budget) {
            next = in;
            break;
          }
          try {
            configs.forFile(ChartLint.isChart(in.path()) ? in.path().resolve(CHART_YAML) : in.path());
          } catch (ConfigResolver.ConfigException e) {
            stop = e;
            break;
          }
          window.add(new Ahead(pool.submit(() -> unit(in)), size));
          bytes += size;
        }
        Ahead head = window.poll();
        if (head == null) {
          break;
        }
        bytes -= head.bytes();
        replay(result(head.result()));
      }
      if (stop != null) {
        throw stop;
      }
    } finally {
      pool.shutdownNow();
      awaitEnd(pool);
    }
  }

  /** An input under way or waiting for its turn, with the size of its file (0 for a chart). */
  private record Ahead(Future<Recorded> result, long bytes) {}

  /**
   * How many bytes of files may be linted ahead of the one whose turn it is: a file's model takes a few times its
   * size, so a sixth of the heap's worth of model at most waits.
   */
  private static long aheadBytes() {
    return Runtime.getRuntime().maxMemory() / 24;
  }

  /** A file's size, as it counts against {@link #aheadBytes}; a chart's output is bounded by Helm's limits. */
  private static long size(Path input) {
    try {
      return Files.isRegularFile(input) ? Files.size(input) : 0;
    } catch (IOException e) {
      // Linting it says why it cannot be read.
      return 0;
    }
  }

  private static Recorded result(Future<Recorded> f) {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CancellationException("the lint was interrupted");
    } catch (ExecutionException e) {
      // A unit records what it throws; this is what it could not record.
      throw new IllegalStateException(e.getCause());
    }
  }

  /**
   * Waits for inputs still under way when the lint stops early, so that none writes a fix after it returns; a
   * render ends within its time limit.
   */
  private static void awaitEnd(ExecutorService pool) {
    try {
      while (!pool.awaitTermination(1, TimeUnit.MINUTES)) {
        // Still rendering.
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** What linting one input told the sink, in order, held until its turn; and what stopped it, if anything. */
  private static final class Recorded implements Sink {
    private final List<Consumer<Sink>> calls = new ArrayList<>();
    private Throwable failure;

    @Override
    public void file(LintedFile file) {
      calls.add(s -> s.file(file));
    }

    @Override
    public void problem(String message) {
      calls.add(s -> s.problem(message));
    }

    @Override
    public void note(String message) {
      calls.add(s -> s.note(message));
    }

    @Override
    public void fixed(String name, int count) {
      calls.add(s -> s.fixed(name, count));
    }

    /** A call that depends on what inputs before this one told: made in turn, when replayed. */
    void inTurn(Consumer<Sink> call) {
      calls.add(call);
    }
  }

  /**
   * Lints one file on its own, fixing it first when asked; its result is reported when {@code report}.
   *
   * @return whether the file could be read, and written when fixed
   */
  private boolean file(Path file, boolean walked, boolean report, Sink out) throws ConfigResolver.ConfigException {
    ConfigResolver.Resolved resolved = configs.forFile(file);
    if (walked && resolved.excludes(file)) {
      return true;
    }
    Linter.Decoded decoded;
    try {
      // Decoded as read: the bytes of a large file are not kept beside its text and model while it is linted.
      decoded = Linter.decode(Files.readAllBytes(file));
    } catch (NoSuchFileException e) {
      out.problem(file + ": no such file");
      return false;
    } catch (IOException | OutOfMemoryError e) {
      out.problem("cannot read " + file + ": " + IoErrors.reason(e));
      return false;
    }
    String name = file.toString();
    Config c = options.adjust().apply(resolved.config());
    String text = options.fix() ? decoded.text() : null;
    if (text == null) {
      out.file(new LintedFile(name, linter.lint(name, decoded, c)));
      return true;
    }
    Fixes.Outcome outcome = Fixes.fixSafe(linter, name, text, c);
    if (outcome.fixed() > 0) {
      try {
        AtomicFiles.write(file, outcome.text().getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        out.problem("cannot write " + file + ": " + IoErrors.reason(e));
        return false;
      }
      out.fixed(name, outcome.fixed());
    }
    if (report) {
      out.file(new LintedFile(name, outcome.result()));
    }
    return true;
  }

  /**
   * Lints a chart ({@link ChartLint}); the configuration is the one of its Chart.yaml, and in a directory walk its
   * excludes apply to the chart and to each of its files.
   */
  private void chart(Path dir, boolean walked, Recorded out) throws ConfigResolver.ConfigException {
    Path chartYaml = dir.resolve(CHART_YAML);
    ConfigResolver.Resolved resolved = configs.forFile(chartYaml);
    if (walked && resolved.excludes(chartYaml)) {
      return;
    }
    if (options.fix() && !fixChartFiles(dir, out)) {
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
      out.problem("cannot read chart " + dir + ": " + IoErrors.reason(e));
      return;
    }
    outcome.helmUnavailable().ifPresent(why -> out.inTurn(s -> {
      if (!toldChartsDoNotRender) {
        toldChartsDoNotRender = true;
        s.note("charts are linted template by template, not rendered: " + why);
      }
    }));
    outcome.notes().forEach(out::note);
    outcome.problems().forEach(out::problem);
    outcome.files().forEach(out::file);
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
  private boolean fixChartFiles(Path dir, Sink out) throws ConfigResolver.ConfigException {
    List<Path> files;
    try {
      files = InputFiles.walkChart(dir, out::note);
    } catch (IOException e) {
      out.problem("cannot read directory " + dir + ": " + e.getMessage());
      return false;
    }
    boolean fixed = true;
    for (Path file : files) {
      fixed &= file(file, true, false, out);
    }
    return fixed;
  }
}
