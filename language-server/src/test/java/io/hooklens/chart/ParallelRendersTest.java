package io.hooklens.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Renders side by side: each render has a worker process of its own (a worker serves one render at a time), no more
 * workers run than allowed, and every chart lints as it does alone, render failures and subcharts included.
 */
class ParallelRendersTest {
  private static final int THREADS = 4;
  private static final List<String> CHARTS = List.of("shop", "hook-order", "plan", "umbrella", "values-place",
      "release-bound", "broken", "refused-hooks", "required-value", "ci-hook", "crd-copies", "helm-reference");

  @Test
  void chartsLintedSideBySideLintAsTheyDoOneAtATime() throws Exception {
    Map<String, List<ChartLinterTest.Seen>> alone = new TreeMap<>();
    for (String chart : CHARTS) {
      alone.put(chart, ChartLinterTest.lint(ChartLinterTest.chart(chart), List.of(), SetValues.NONE));
    }
    ChartLinter.allowParallelRenders(THREADS);
    // Every chart twice, in an order of their own, so that each thread renders different charts at once.
    List<String> work = new ArrayList<>(CHARTS);
    work.addAll(CHARTS);
    Collections.shuffle(work, new Random(21));
    Set<Long> seen = new HashSet<>();
    int[] most = {0};
    AtomicBoolean done = new AtomicBoolean();
    Thread sampler = new Thread(() -> {
      while (!done.get()) {
        Set<Long> now = RenderWorkerIdleTest.workers();
        synchronized (seen) {
          seen.addAll(now);
          most[0] = Math.max(most[0], now.size());
        }
        try {
          Thread.sleep(10);
        } catch (InterruptedException e) {
          return;
        }
      }
    });
    sampler.start();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    CyclicBarrier start = new CyclicBarrier(THREADS);
    try {
      List<Future<Map<String, List<ChartLinterTest.Seen>>>> runs = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        List<String> mine = new ArrayList<>();
        for (int i = t; i < work.size(); i += THREADS) {
          mine.add(work.get(i));
        }
        runs.add(pool.submit(() -> {
          start.await();
          Map<String, List<ChartLinterTest.Seen>> got = new TreeMap<>();
          for (String chart : mine) {
            List<ChartLinterTest.Seen> findings =
                ChartLinterTest.lint(ChartLinterTest.chart(chart), List.of(), SetValues.NONE);
            assertEquals(alone.get(chart), findings, chart + " side by side");
            got.put(chart, findings);
          }
          return got;
        }));
      }
      Set<String> linted = new HashSet<>();
      for (Future<Map<String, List<ChartLinterTest.Seen>>> run : runs) {
        linted.addAll(run.get().keySet());
      }
      assertEquals(new HashSet<>(CHARTS), linted);
    } finally {
      pool.shutdownNow();
      done.set(true);
      sampler.join();
    }
    synchronized (seen) {
      assertTrue(most[0] <= THREADS, most[0] + " workers ran at once, more than " + THREADS);
      // The first renders wait seconds for their workers to start, long enough for any sampling to see them.
      assertTrue(seen.size() >= 2, "renders went to " + seen + " only");
    }
  }
}
