package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.hooklens.TestPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

/**
 * The samples of the docs, checked by running them. A sample is a {@code console} block in {@code README.md}
 * or under {@code docs/}: lines starting with {@code $ hooklens} (or {@code $ ./hooklens}) are commands,
 * the lines after one are what it prints, standard error first. An output line {@code ...} stands for any
 * number of lines; inside a line, {@code ...} stands for any text, a decimal number such as {@code 3.25}
 * for any decimal number (a measured time), and two or more spaces for one or more. Commands run
 * in-process, from the repository's root, on a fresh copy of {@code examples/} so that {@code --fix}
 * changes nothing tracked; a command runs after the earlier commands of its block, on the same copy, so that a
 * block can show a file written and then read.
 */
final class DocSamples {
  private static final Pattern DECIMAL = Pattern.compile("\\d+\\.\\d+");
  private static final Pattern SPACES = Pattern.compile(" {2,}");

  /**
   * One command and what it prints.
   *
   * @param before the earlier commands of its block, run first on the same copy
   */
  record Sample(String where, List<String> argv, List<String> expected, List<List<String>> before) {}

  private DocSamples() {}

  static List<Sample> all() throws IOException {
    Path root = TestPaths.repoRoot();
    List<Path> docs = new ArrayList<>(List.of(root.resolve("README.md")));
    try (Stream<Path> files = Files.walk(root.resolve("docs"))) {
      files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    List<Sample> samples = new ArrayList<>();
    for (Path doc : docs) {
      List<String> lines = Files.readAllLines(doc);
      boolean inConsole = false;
      Sample current = null;
      List<List<String>> block = new ArrayList<>();
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        if (!inConsole) {
          inConsole = line.equals("```console");
          block = new ArrayList<>();
          continue;
        }
        if (line.startsWith("```")) {
          inConsole = false;
          current = null;
        } else if (line.startsWith("$ ")) {
          String where = root.relativize(doc) + ":" + (i + 1);
          List<String> argv = words(line.substring(2));
          if (argv.isEmpty() || !List.of("hooklens", "./hooklens").contains(argv.get(0))) {
            fail(where + ": a console sample runs hooklens, not " + line);
          }
          current = new Sample(where, argv.subList(1, argv.size()), new ArrayList<>(), List.copyOf(block));
          samples.add(current);
          block.add(current.argv());
        } else if (current == null) {
          fail(root.relativize(doc) + ":" + (i + 1) + ": output before any command");
        } else {
          current.expected().add(line);
        }
      }
    }
    return samples;
  }

  /** One test per sample that {@code which} accepts. */
  static Stream<DynamicTest> tests(Predicate<Sample> which) throws IOException {
    List<Sample> samples = all().stream().filter(which).toList();
    assertTrue(!samples.isEmpty(), "the docs have samples");
    return samples.stream().map(s -> DynamicTest.dynamicTest(s.where() + " $ hooklens " + String.join(" ", s.argv()),
        () -> check(s)));
  }

  /** Whether the sample runs hooks (real processes on the embedded cluster). */
  static boolean runsHooks(Sample s) {
    return s.argv().get(0).equals("run") && s.argv().contains("--yes");
  }

  private static void check(Sample sample) throws IOException {
    Path root = TestPaths.repoRoot();
    Path work = Files.createTempDirectory("hooklens-doc-");
    try {
      TestPaths.copyTree(root.resolve("examples"), work.resolve("examples"));
      for (List<String> earlier : sample.before()) {
        CliRun.of(args(earlier, root, work));
      }
      CliRun r = CliRun.of(args(sample.argv(), root, work));
      String printed = (r.err() + r.out()).replace(work + "/", "").replace(root + "/", "");
      List<String> actual = List.of(printed.stripTrailing().split("\n", -1));
      List<Pattern> patterns = sample.expected().stream().map(DocSamples::pattern).toList();
      assertTrue(matches(patterns, 0, actual, 0), sample.where() + ": the sample is not what the command prints now."
          + "\n--- sample:\n" + String.join("\n", sample.expected()) + "\n--- printed:\n" + String.join("\n", actual));
    } finally {
      delete(work);
    }
  }

  /** A sample's arguments with the examples in the work copy and other repository paths absolute. */
  private static String[] args(List<String> argv, Path root, Path work) {
    List<String> args = new ArrayList<>();
    for (String arg : argv) {
      boolean example = arg.equals("examples") || arg.startsWith("examples/");
      args.add(example ? work.resolve(arg).toString() : Files.exists(root.resolve(arg)) && !arg.startsWith("-")
          ? root.resolve(arg).toString() : arg);
    }
    return args.toArray(String[]::new);
  }

  /** A pattern line, or null for {@code ...}, which stands for any number of lines. */
  private static Pattern pattern(String line) {
    if (line.equals("...")) {
      return null;
    }
    StringBuilder regex = new StringBuilder();
    String[] parts = line.split("\\.\\.\\.", -1);
    for (int i = 0; i < parts.length; i++) {
      if (i > 0) {
        regex.append(".*");
      }
      regex.append(literal(parts[i]));
    }
    return Pattern.compile(regex.toString());
  }

  /** Quotes text, except that decimals match any decimal and runs of spaces any run of spaces. */
  private static String literal(String text) {
    StringBuilder regex = new StringBuilder();
    Matcher m = Pattern.compile(DECIMAL.pattern() + "|" + SPACES.pattern()).matcher(text);
    int at = 0;
    while (m.find()) {
      regex.append(Pattern.quote(text.substring(at, m.start())));
      regex.append(m.group().startsWith(" ") ? " +" : "\\d+\\.\\d+");
      at = m.end();
    }
    return regex.append(Pattern.quote(text.substring(at))).toString();
  }

  private static boolean matches(List<Pattern> patterns, int p, List<String> lines, int l) {
    if (p == patterns.size()) {
      return l == lines.size();
    }
    Pattern pattern = patterns.get(p);
    if (pattern == null) {
      for (int skip = l; skip <= lines.size(); skip++) {
        if (matches(patterns, p + 1, lines, skip)) {
          return true;
        }
      }
      return false;
    }
    return l < lines.size() && pattern.matcher(lines.get(l)).matches() && matches(patterns, p + 1, lines, l + 1);
  }

  /** Shell words: spaces separate them; single and double quotes group. */
  static List<String> words(String command) {
    List<String> words = new ArrayList<>();
    StringBuilder word = null;
    char quote = 0;
    for (char c : command.toCharArray()) {
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else {
          word.append(c);
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
        word = word == null ? new StringBuilder() : word;
      } else if (c == ' ') {
        if (word != null) {
          words.add(word.toString());
          word = null;
        }
      } else {
        word = word == null ? new StringBuilder() : word;
        word.append(c);
      }
    }
    if (word != null) {
      words.add(word.toString());
    }
    return words;
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted((a, b) -> b.compareTo(a)).toList()) {
        Files.delete(p);
      }
    }
  }
}
