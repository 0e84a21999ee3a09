package io.hooklens.run.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SVG timeline as a browser lays it out: headless Chromium renders it in a page styled as the editor's
 * panel (the image scaled to the panel's width, never wider) and measures every text's box, which must lie
 * on the canvas and clear of every other, with the text large enough to read.
 */
@Tag("slow")
class SvgTimelineRenderTest {
  private static final Pattern RESULT = Pattern.compile("<pre id=\"result\">(.*?)</pre>", Pattern.DOTALL);
  // The font size as shown, below which a panel's text is no longer comfortably legible.
  private static final double LEGIBLE_PX = 9;

  @TempDir
  Path dir;

  private static final String MEASURE = """
      const svg = document.querySelector('svg');
      const view = svg.viewBox.baseVal;
      const boxes = [...svg.querySelectorAll('text')].filter(t => t.textContent.trim() !== '').map(t => {
        const b = t.getBBox();
        return {text: t.textContent, x: b.x, y: b.y, right: b.x + b.width, bottom: b.y + b.height};
      });
      const problems = [];
      for (const b of boxes) {
        if (b.x < view.x - 0.5 || b.y < view.y - 0.5 || b.right > view.x + view.width + 0.5
            || b.bottom > view.y + view.height + 0.5) {
          problems.push('off the canvas: ' + b.text + ' ' + JSON.stringify(b));
        }
      }
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i], b = boxes[j];
          const w = Math.min(a.right, b.right) - Math.max(a.x, b.x);
          const h = Math.min(a.bottom, b.bottom) - Math.max(a.y, b.y);
          if (w > 1 && h > 1) {
            problems.push('overlap: "' + a.text + '" and "' + b.text + '"');
          }
        }
      }
      const scale = svg.getBoundingClientRect().width / view.width;
      document.getElementById('result').textContent = JSON.stringify({texts: boxes.length, scale, problems});
      """;

  /**
   * A run with long names, restarts, a failed readiness probe before Ready, a cut-off preStop that printed a long
   * line of wide characters, a long verdict and a rollout whose post hook failed.
   */
  static RunReport report() {
    String resource = "Deployment/payments-gateway-with-a-rather-long-name";
    String printed = "starting\n" + "x".repeat(300) + "\nmissing-tool: not found\n";
    List<ContainerResult.Attempt> runs = List.of(new ContainerResult.Attempt(0, 50L, null, 120L, 3, "Error", 400L,
        printed, 0), new ContainerResult.Attempt(1, 520L, 600L, 6200L, 137, "Error", null, printed, 0));
    Step step = new Step("pod", "delete", resource, "default", "payments-gateway-with-a-rather-long-name-deployment", 3,
        1000L, 6300L, "node", List.of(new ContainerResult("payments-gateway-sidecar", "sh -c 'exit 3'", 50L, 600L,
        6200L, 137, "Error", 1, runs, printed.repeat(2), 0,
        900L, List.of(new ContainerResult.ProbeMark(700, ContainerResult.ProbeMark.UNHEALTHY,
            "Readiness probe failed: dial tcp 10.244.0.1:8080: connect: connection refused"),
            new ContainerResult.ProbeMark(900, ContainerResult.ProbeMark.READY, "")))),
        List.of(new HookResult("payments-gateway-sidecar", "postStart", "exec true", 60L, 110L, "failed",
            "command 'true' exited with 3", "", 0, List.of(), 0),
            new HookResult("payments-gateway-sidecar", "postStart", "exec true", 530L, 590L, "succeeded", null, "", 0,
                List.of(), 1),
            new HookResult("payments-gateway-sidecar", "preStop", "exec sleep 8", 1050L, 4050L, "cut-off",
                "grace period of 3 s is over", "排水中：接続を閉じています".repeat(12) + "\n", 0, List.of(), 1)),
        List.of(new Signal("payments-gateway-sidecar", "SIGTERM", 4050), new Signal("payments-gateway-sidecar",
            "SIGKILL", 6100)), List.of(), List.of(), List.of());
    step = new Step(step.kind(), step.trigger(), step.resource(), step.namespace(), step.pod(), step.graceSeconds(),
        step.deleteMs(), step.goneMs(), step.timing(), step.containers(), step.hooks(), step.signals(), step.events(),
        Verdicts.of(step, 30_000), step.notes());
    List<Sequence.Item> items = List.of(
        new Sequence.Item("pre", "hook", "recreateParams.pre", null, List.of("Retry"), "succeeded", "", 0, 12_700,
            null, null, List.of(new Sequence.PodOutput("shop-1-hook-pre", "Succeeded", null, List.of(
                new Sequence.ContainerOutput("lifecycle", 0, "Completed", null, 2, "migrating shop-1, try 1\n"
                    + "migrating shop-1, try 2\nmigrating shop-1, try 3\n", 0, List.of(
                        new Sequence.RunOutput(0, 1, "migrating shop-1, try 1\n", 0),
                        new Sequence.RunOutput(1, 1, "migrating shop-1, try 2\n", 0),
                        new Sequence.RunOutput(2, 0, "migrating shop-1, try 3\n", 0)))))), List.of(), List.of(),
            false),
        new Sequence.Item("deployer", "scale", "scale shop-1 up to 2", null, List.of(), "recorded", "", 12_800,
            12_800, null, null, List.of(), List.of(), List.of(), false),
        new Sequence.Item("post", "hook", "recreateParams.post", null, List.of("Abort"), "failed",
            "the post hook failed: pod shop-1-hook-post failed, aborting rollout of default/shop-1", 12_900, 13_200,
            null, null, List.of(), List.of(), List.of(), false),
        new Sequence.Item("deployer", "controller", "rollout failed: the DeploymentConfig controller scales shop-1 "
            + "to 0; with no earlier complete deployment nothing serves", null, List.of(), "recorded", "", 13_300,
            13_300, null, null, List.of(), List.of(), List.of(), false));
    Sequence rollout = new Sequence("rollout", "DeploymentConfig/shop", "default", items,
        "post hook failed: the post hook failed: pod shop-1-hook-post failed, aborting rollout of default/shop-1",
        13_400, SequenceVerdicts.rollout(items), List.of());
    return new RunReport(RunReport.VERSION, "shop.yaml", "embedded", true, List.of(step), List.of(rollout), List.of(),
        900L);
  }

  private static Optional<Path> chromium() {
    return Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
        .flatMap(d -> Stream.of("chromium", "chromium-browser", "google-chrome").map(n -> Path.of(d, n)))
        .filter(Files::isExecutable).findFirst();
  }

  private JsonNode measure(String svg, int width) throws IOException, InterruptedException {
    Path page = dir.resolve("page-" + width + ".html");
    Files.writeString(page, "<!DOCTYPE html><html><head><meta charset=\"UTF-8\"><style>body { margin: 0; padding: 12px; }"
        + " .timeline svg { max-width: 100%; height: auto; }</style></head><body><div class=\"timeline\">"
        + svg.replaceFirst("^<\\?xml[^>]*>\\s*", "") + "</div><pre id=\"result\"></pre><script>" + MEASURE
        + "</script></body></html>");
    Path profile = Files.createDirectories(dir.resolve("profile-" + width));
    Process chrome = new ProcessBuilder(chromium().orElseThrow().toString(), "--headless", "--no-sandbox",
        "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--no-first-run", "--user-data-dir=" + profile, "--window-size=" + width + ",1000", "--dump-dom",
        page.toUri().toString()).redirectError(dir.resolve("chromium-" + width + ".log").toFile()).start();
    byte[] dom = chrome.getInputStream().readAllBytes();
    if (!chrome.waitFor(60, TimeUnit.SECONDS)) {
      chrome.destroyForcibly();
    }
    Matcher m = RESULT.matcher(new String(dom, StandardCharsets.UTF_8));
    assertTrue(m.find(), "no measurement from Chromium: " + Files.readString(dir.resolve("chromium-" + width + ".log")));
    return new ObjectMapper().readTree(m.group(1).replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">")
        .replace("&amp;", "&"));
  }

  @ParameterizedTest
  @ValueSource(ints = {600, 1400})
  void everyTextIsOnTheCanvasClearOfTheOthersAndLegibleAtAPanelsWidth(int width) throws Exception {
    Assumptions.assumeTrue(chromium().isPresent(), "no chromium on the PATH to lay the SVG out");
    String svg = SvgTimeline.render(report());
    JsonNode result = measure(svg, width);
    List<String> problems = new ArrayList<>();
    result.get("problems").forEach(p -> problems.add(p.asText()));
    assertEquals(List.of(), problems, svg);
    assertTrue(result.get("texts").asInt() > 30, result.toString());
    double shown = 13 * result.get("scale").asDouble();
    assertTrue(shown >= LEGIBLE_PX, "text shown at " + shown + " px in a " + width + " px panel");
    for (String expected : List.of("already live", "grace period ends", "container running", "SIGKILL",
        "nothing serves", "output of payments-gateway-sidecar, run 2", "missing-tool: not found",
        "output of recreateParams.pre, pod shop-1-hook-pre, lifecycle, run 3 (exit 0)", "migrating shop-1, try 3")) {
      assertTrue(svg.contains(expected), expected + " in:\n" + svg);
    }
  }
}
