package io.hooklens.run.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hooklens.core.text.Printable;
import io.hooklens.run.kube.BoundedOutput;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.xml.sax.InputSource;

/**
 * A report of a run whose names and output are made to rewrite a terminal: every human format shows them as
 * visible escapes and only the end of each output, the JSON keeps exactly what was kept of it.
 */
class HostileOutputReportTest {
  /** A window title, a screen clear, a cursor move, CR, backspace, NUL, BEL, DEL, a C1 CSI and a bidi override. */
  private static final String HOSTILE = "\u001b]0;pwned\u0007\u001b[2J\u001b[1;1H\r\b\u0000\u007f\u009b31m\u202e";
  private static final String CONTAINER = "app" + HOSTILE;
  private static final int MEGABYTE = 1024 * 1024;
  private static final Pattern NOT_SHOWN = Pattern.compile("… ([0-9,]+) earlier bytes not shown");

  private static BoundedOutput.Tail captured(String text) {
    BoundedOutput out = new BoundedOutput();
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    out.write(bytes, 0, bytes.length);
    return out.tail();
  }

  private static long bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8).length;
  }

  private static String lines(int from, int to) {
    StringBuilder s = new StringBuilder();
    for (int i = from; i <= to; i++) {
      s.append("line ").append(i).append(' ').append(HOSTILE).append('\n');
    }
    return s.toString();
  }

  // 1 MB on one line, then 30 short lines; the last 20 are shown.
  private static final String HOOK_OUTPUT = HOSTILE + "x".repeat(MEGABYTE) + "\n" + lines(1, 30);
  // 1 MB with no line break at all: only its last bytes are shown.
  private static final String POD_OUTPUT = ("y".repeat(99) + HOSTILE).repeat(MEGABYTE / 100);

  private static RunReport report() {
    BoundedOutput.Tail hookOutput = captured(HOOK_OUTPUT);
    BoundedOutput.Tail podOutput = captured(POD_OUTPUT);
    List<Prediction> predicted = List.of(new Prediction("HL401", "warning", "preStop of container \"" + CONTAINER
        + "\" needs 6s", "templates/" + HOSTILE + ".yaml", 12, 5));
    Step step = new Step("pod", "delete", "Pod/web" + HOSTILE, "default" + HOSTILE, "web" + HOSTILE, 2, 1000L, 5000L,
        "node", List.of(new ContainerResult(CONTAINER, "sh -c " + HOSTILE, 10L, 20L, 4000L, 137, "Error" + HOSTILE, 0,
            List.of(new ContainerResult.Attempt(0, 10L, 20L, 4000L, 137, "Error" + HOSTILE, null, "", 0)),
            podOutput.text(),
            podOutput.droppedBytes(), null, List.of())),
        List.of(new HookResult(CONTAINER, "preStop", "exec sh -c " + HOSTILE, 1100L, 3000L, "cut-off", null,
            hookOutput.text(), hookOutput.droppedBytes(), predicted, 0),
            new HookResult(CONTAINER, "postStart", "exec " + HOSTILE, 15L, 18L, "failed",
                "command exited with 1: " + HOSTILE, "", 0, List.of(), 0)),
        List.of(new Signal(CONTAINER, "SIGTERM", 3000), new Signal(CONTAINER, "SIGKILL", 4000)),
        List.of(new EventRecord("Warning", "FailedPreStopHook" + HOSTILE, "PreStopHook failed" + HOSTILE, CONTAINER,
            "2026-01-01T12:00:00Z")), List.of(), List.of("note " + HOSTILE));
    step = new Step(step.kind(), step.trigger(), step.resource(), step.namespace(), step.pod(), step.graceSeconds(),
        step.deleteMs(), step.goneMs(), step.timing(), step.containers(), step.hooks(), step.signals(), step.events(),
        Verdicts.of(step, 30_000), step.notes());
    List<Sequence.Item> items = List.of(new Sequence.Item("pre-install", "hook", "Job/migrate" + HOSTILE, 0L,
        List.of("hook-succeeded" + HOSTILE), "failed", "BackoffLimitExceeded" + HOSTILE, 10, 900, null, null,
        List.of(new Sequence.PodOutput("migrate-x" + HOSTILE, "Failed", null, List.of(new Sequence.ContainerOutput(
            CONTAINER, 1, "Error", "exit " + HOSTILE, 0, podOutput.text(), podOutput.droppedBytes(), List.of())))),
        List.of("tag" + HOSTILE), predicted, true));
    Sequence sequence = new Sequence("helm", "install" + HOSTILE, "default", items, "failed " + HOSTILE, 1000,
        SequenceVerdicts.helm("install", items), List.of("note " + HOSTILE));
    return new RunReport(RunReport.VERSION, "chart" + HOSTILE, "embedded", true, List.of(step), List.of(sequence),
        List.of("warning " + HOSTILE), 1200L);
  }

  /** No C0 control but line feed and tab, no DEL, no C1 control, no character that reorders a line. */
  private static void assertPrintable(String text, String what) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean control = c < 0x20 && c != '\n' && c != '\t' || c >= 0x7f && c <= 0x9f || c == '\u202e';
      assertTrue(!control, String.format(Locale.ROOT, "%s: U+%04X at %d: %s", what, (int) c, i,
          Printable.line(text.substring(Math.max(0, i - 40), Math.min(text.length(), i + 40)))));
    }
  }

  private static long notShown(String text) {
    Matcher m = NOT_SHOWN.matcher(text);
    assertTrue(m.find(), text);
    return Long.parseLong(m.group(1).replace(",", ""));
  }

  @Test
  void theTextReportShowsControlCharactersAsEscapesAndOnlyTheEndOfEachOutput() {
    String text = TextReport.render(report(), 100, false);
    assertPrintable(text, "text report");
    assertTrue(text.contains("  app\\x1b]0;pwned\\x07\\x1b[2J\\x1b[1;1H\\r\\x08\\x00\\x7f\\u009b31m\\u202e preStop: "
        + "exec sh -c \\x1b]0;pwned"), text);
    assertTrue(text.length() < 40_000, "two outputs of 1 MB give a short report: " + text.length());

    String containers = text.substring(text.indexOf("\nContainers\n"), text.indexOf("\nHooks\n"));
    List<String> containerLines = containers.lines().filter(l -> l.startsWith("      | ")).toList();
    assertEquals(1, containerLines.size(), containers);
    assertTrue(containerLines.get(0).endsWith("\\u009b31m\\u202e"), containerLines.get(0));
    assertTrue(notShown(containers) >= bytes(POD_OUTPUT) - TextReport.OUTPUT_BYTES, containers);

    String hooks = text.substring(text.indexOf("\nHooks\n"), text.indexOf("\nVerdicts\n"));
    List<String> shown = hooks.lines().filter(l -> l.startsWith("      | ")).toList();
    assertEquals(TextReport.OUTPUT_LINES, shown.size(), hooks);
    assertTrue(shown.get(0).startsWith("      | line 11 \\x1b]0;pwned\\x07"), shown.get(0));
    assertTrue(shown.get(19).startsWith("      | line 30 "), shown.get(19));
    assertEquals(bytes(HOOK_OUTPUT) - bytes(lines(11, 30)), notShown(hooks));

    String steps = text.substring(text.indexOf("\nSteps\n"));
    List<String> podLines = steps.lines().filter(l -> l.startsWith("        | ")).toList();
    assertEquals(1, podLines.size(), steps);
    assertTrue(podLines.get(0).endsWith("\\u009b31m\\u202e"), podLines.get(0));
    // The last bytes that fit, whole characters only.
    long podNotShown = notShown(steps);
    assertTrue(podNotShown >= bytes(POD_OUTPUT) - TextReport.OUTPUT_BYTES
        && podNotShown <= bytes(POD_OUTPUT) - TextReport.OUTPUT_BYTES + 3, steps);
  }

  @Test
  void colourIsTheReportsOwnOnly() {
    String text = TextReport.render(report(), 100, true);
    String uncoloured = text.replaceAll("\u001b\\[(0|1|2|31|32|33)m", "");
    assertPrintable(uncoloured, "coloured text report");
    assertTrue(text.contains("\u001b[31m"), "the report is coloured");
  }

  @Test
  void theEditorsVerdictLinesAreEscaped() {
    List<String> lines = TextReport.verdictLines(report());
    assertTrue(lines.size() >= 3, lines.toString());
    lines.forEach(l -> assertPrintable(l, "verdict line"));
    assertTrue(lines.get(0).startsWith("✗ app\\x1b]0;pwned"), lines.get(0));
  }

  @Test
  void theSvgIsWellFormedXmlWithoutControlCharacters() throws Exception {
    String svg = SvgTimeline.render(report());
    assertPrintable(svg, "SVG");
    var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new InputSource(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8))));
    assertEquals("svg", doc.getDocumentElement().getTagName());
    assertTrue(doc.getDocumentElement().getTextContent().contains("app\\x1b]0;pwned\\x07"), svg);
    // The end of each output, escaped, each line cut to the canvas.
    assertTrue(svg.contains("output of app\\x1b]0;pwned"), svg);
    assertTrue(svg.contains("output of Job/migrate\\x1b]0;pwned"), svg);
    assertTrue(svg.contains("line 30 \\x1b]0;pwned\\x07") && !svg.contains("line 25 "), svg);
    assertTrue(svg.length() < 60_000, "two outputs of 1 MB give a small image: " + svg.length());
  }

  @Test
  void theJsonKeepsExactlyWhatWasCapturedAndSaysHowMuchWasDropped() throws Exception {
    BoundedOutput.Tail hookOutput = captured(HOOK_OUTPUT);
    BoundedOutput.Tail podOutput = captured(POD_OUTPUT);
    JsonNode json = new ObjectMapper().readTree(JsonReport.render(report()));

    JsonNode hook = json.get("steps").get(0).get("hooks").get(0);
    assertEquals(CONTAINER, hook.get("container").asText());
    assertEquals(hookOutput.text(), hook.get("output").asText());
    assertEquals(bytes(HOOK_OUTPUT) - BoundedOutput.KEPT_BYTES, hook.get("outputDroppedBytes").asLong());
    assertEquals(hookOutput.droppedBytes(), hook.get("outputDroppedBytes").asLong());
    assertTrue(hook.get("output").asText().endsWith(lines(11, 30)));

    JsonNode stepContainer = json.get("steps").get(0).get("containers").get(0);
    assertEquals(podOutput.text(), stepContainer.get("output").asText());
    assertEquals(podOutput.droppedBytes(), stepContainer.get("outputDroppedBytes").asLong());
    assertEquals(137, stepContainer.get("attempts").get(0).get("exitCode").asInt());

    JsonNode container = json.get("sequences").get(0).get("items").get(0).get("pods").get(0).get("containers").get(0);
    assertEquals(podOutput.text(), container.get("output").asText());
    assertEquals(podOutput.droppedBytes(), container.get("outputDroppedBytes").asLong());
    assertEquals(CONTAINER, container.get("name").asText());
  }
}
