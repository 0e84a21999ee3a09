package io.hooklens.bench;

import io.hooklens.core.engine.Linter;
import io.hooklens.rules.BuiltInRules;
import io.hooklens.run.Images;
import io.hooklens.run.RunPlan;
import io.hooklens.run.Runner;
import io.hooklens.run.Selection;
import io.hooklens.run.report.HookResult;
import io.hooklens.run.report.RunReport;
import io.hooklens.run.report.Step;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What the runner adds to a hook's own duration: a preStop {@code sleep 1} (exec, in the sandbox) run
 * through the runner on the embedded cluster, against {@code sleep 1} started directly, measured in the
 * same JVM. For each run it records the preStop window the node measured (hook start to end) and the
 * window the user waits for (the runner's delete request to the hook's end). Prints medians.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.hooklens.bench.RunnerOverhead [runs]}
 */
public final class RunnerOverhead {
  private static final String POD = """
      apiVersion: v1
      kind: Pod
      metadata:
        name: overhead
      spec:
        terminationGracePeriodSeconds: 5
        containers:
          - name: app
            image: debian:12
            command: ["sh", "-c", "trap 'exit 0' TERM; while true; do sleep 0.1; done"]
            lifecycle:
              preStop:
                exec:
                  command: ["sleep", "1"]
      """;

  private RunnerOverhead() {}

  public static void main(String[] args) throws Exception {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 7;
    RunPlan plan = RunPlan.of(new Linter(BuiltInRules.registry()).parse("overhead.yaml", POD), Selection.all());
    List<Long> direct = new ArrayList<>();
    List<Long> hook = new ArrayList<>();
    List<Long> fromDelete = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      long start = System.nanoTime();
      new ProcessBuilder("sleep", "1").start().waitFor();
      direct.add((System.nanoTime() - start) / 1_000_000);
      RunReport report;
      try (Runner runner = Runner.embedded(Images.NONE, 30, (s, p, w) -> { })) {
        report = runner.run(plan, List.of());
      }
      Step step = report.steps().get(0);
      HookResult preStop = step.hooks().get(0);
      hook.add(preStop.endMs() - preStop.startMs());
      fromDelete.add(preStop.endMs() - step.deleteMs());
    }
    long baseline = median(direct) - 1000;
    System.out.printf("runs: %d%n", runs);
    System.out.printf("sleep 1 started directly:           %d ms (overhead %d ms, the baseline)%n", median(direct),
        baseline);
    System.out.printf("preStop sleep 1, hook start to end:  %d ms (overhead %d ms, %d ms over the baseline)%n",
        median(hook), median(hook) - 1000, median(hook) - 1000 - baseline);
    System.out.printf("preStop sleep 1, delete to hook end: %d ms (overhead %d ms, %d ms over the baseline)%n",
        median(fromDelete), median(fromDelete) - 1000, median(fromDelete) - 1000 - baseline);
  }

  private static long median(List<Long> values) {
    List<Long> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }
}
