package io.hooklens.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.Linter;
import io.hooklens.rules.BuiltInRules;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Code frames stay a terminal's width wide, whatever the length of the line they show. */
class TextFormatterTest {
  private static final Linter LINTER = new Linter(BuiltInRules.registry());
  /** Columns of source text a frame shows per line, and the mark where it leaves text out. */
  private static final int WIDTH = 120;
  private static final String CUT = "…";

  private static FileResult lint(String name, String text) {
    return new FileResult(name, LINTER.lint(name, text, Config.DEFAULT));
  }

  private static void write(FileResult file, Writer out) {
    Report report = new Report(new TextFormatter(false), new PrintWriter(out), LINTER.registry(), "test");
    report.add(file);
    report.finish(OptionalInt.empty());
  }

  private static String text(String name, String manifest) {
    StringWriter out = new StringWriter();
    write(lint(name, manifest), out);
    return out.toString();
  }

  /** A pod whose first container is written on one line; its empty preStop is an HL101 finding. */
  private static String pod(String before, String after) {
    return "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
        + "    - {name: a, image: \"" + before + "\", lifecycle: {preStop: {}}, args: [\"" + after + "\"]}\n"
        + "  restartPolicy: Always\n";
  }

  @Test
  void aLongLineIsShownAroundTheFinding() {
    String out = text("long.yaml", pod("x".repeat(1 << 20), "y".repeat(1 << 20)));
    for (String line : out.split("\n")) {
      assertTrue(line.length() < WIDTH + 10 || !line.contains(" | "), line.length() + " characters");
    }
    String shown = sourceLine(out);
    assertTrue(shown.startsWith(CUT + "xxx") && shown.endsWith("yyy" + CUT), shown);
    assertEquals("preStop", underCarets(out));
    assertTrue(out.contains("  5 | " + CUT + "\n"), "the lines around are cut at the same column: " + out);
  }

  @Test
  void caretsCountTerminalColumnsOfWideAndCombiningCharacters() {
    // CJK and emoji take two columns, a combining accent none, a tab one (shown as a space).
    String mixed = "漢字\uD83D\uDE80\te\u0301".repeat(40);
    String out = text("wide.yaml", pod(mixed, "z".repeat(300)));
    String shown = sourceLine(out);
    int carets = caretColumn(out);
    assertEquals("preStop", atColumn(shown, carets, 7), out);
    assertTrue(columns(shown) <= WIDTH, columns(shown) + " columns: " + shown);
  }

  @Test
  void aShortLineIsShownWhole() {
    String out = text("short.yaml", pod("nginx", "serve"));
    assertEquals("    - {name: a, image: \"nginx\", lifecycle: {preStop: {}}, args: [\"serve\"]}", sourceLine(out));
    assertEquals("preStop", underCarets(out));
  }

  @Test
  void findingsOnOneLongLineCostNoMoreEachAsTheLineGrows() {
    long[] nanos = assertTimeoutPreemptively(Duration.ofMinutes(5),
        () -> new long[] {formatCpuNanos(200), formatCpuNanos(3200)});
    // Linear is 16x; each finding printing the whole line once is 256x. The bound sits between them with room
    // for a busy machine, where a longer run loses more of its caches to other processes than a short one.
    assertTrue(nanos[1] < 48 * nanos[0], "200 items: " + nanos[0] / 1_000_000 + " ms, 3200 items: "
        + nanos[1] / 1_000_000 + " ms");
  }

  /** The least CPU time of five text reports of a minified JSON List of pods, each with one finding. */
  private static long formatCpuNanos(int items) {
    String list = IntStream.range(0, items).mapToObj(i -> "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", "
            + "\"metadata\": {\"name\": \"p" + i + "\"}, \"spec\": {\"containers\": [{\"name\": \"a\", "
            + "\"image\": \"nginx\", \"lifecycle\": {\"preStop\": {}}}]}}")
        .collect(Collectors.joining(", ", "{\"apiVersion\": \"v1\", \"kind\": \"List\", \"items\": [", "]}"));
    FileResult file = lint("list.json", list);
    assertEquals(items, file.result().findings().size());
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long best = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      long start = threads.getCurrentThreadCpuTime();
      write(file, Writer.nullWriter());
      best = Math.min(best, threads.getCurrentThreadCpuTime() - start);
    }
    return best;
  }

  /** The finding's line as shown, without its gutter. */
  private static String sourceLine(String out) {
    String line = out.lines().filter(l -> l.startsWith("> ")).findFirst().orElseThrow();
    return line.substring(line.indexOf(" | ") + 3);
  }

  private static int caretColumn(String out) {
    List<String> lines = out.lines().toList();
    for (int i = 0; i + 1 < lines.size(); i++) {
      if (lines.get(i).startsWith("> ")) {
        String carets = lines.get(i + 1);
        return carets.indexOf('^') - (carets.indexOf(" | ") + 3);
      }
    }
    throw new AssertionError("no carets in " + out);
  }

  /** The text of the source line under the carets, as many code points as there are carets. */
  private static String underCarets(String out) {
    String line = out.lines().filter(l -> l.contains("^")).findFirst().orElseThrow();
    int count = (int) line.chars().filter(c -> c == '^').count();
    return atColumn(sourceLine(out), caretColumn(out), count);
  }

  /** {@code length} code points of {@code shown} from the terminal column {@code column}. */
  private static String atColumn(String shown, int column, int length) {
    int i = 0;
    for (int col = 0; col < column; ) {
      int c = shown.codePointAt(i);
      col += width(c);
      i += Character.charCount(c);
    }
    return shown.substring(i, shown.offsetByCodePoints(i, length));
  }

  private static int columns(String shown) {
    return shown.codePoints().map(TextFormatterTest::width).sum();
  }

  /** Terminal columns of the characters these tests use. */
  private static int width(int c) {
    if (c == 0x301) {
      return 0;
    }
    return c == '漢' || c == '字' || c == 0x1F680 ? 2 : 1;
  }
}
