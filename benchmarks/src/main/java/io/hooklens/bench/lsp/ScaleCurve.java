package io.hooklens.bench.lsp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The scale curve's two halves that need Java (docs/performance.md, "Scale"; {@code benchmarks/scale.sh}
 * runs them):
 *
 * <ul>
 *   <li>{@code write DIR N}: N manifest files of about 100 lines each ({@link ManifestGenerator#file}),
 *       named so that name order is generation order;
 *   <li>{@code lsp REPO DIR N...}: for each N, a fresh {@code REPO/hooklens lsp} opens the first N files of
 *       DIR, waits for the diagnostics of every one, then reads the server's memory; one tab-separated
 *       line per N on standard output.
 * </ul>
 */
public final class ScaleCurve {
  private static final Pattern HEAP_USED = Pattern.compile("total \\d+K, used (\\d+)K");

  private ScaleCurve() {}

  public static void main(String[] args) throws Exception {
    if (args.length >= 3 && args[0].equals("write")) {
      write(Path.of(args[1]), Integer.parseInt(args[2]));
    } else if (args.length >= 4 && args[0].equals("lsp")) {
      Path repo = Path.of(args[1]);
      Path dir = Path.of(args[2]);
      for (int i = 3; i < args.length; i++) {
        lsp(repo, dir, Integer.parseInt(args[i]));
      }
    } else {
      System.err.println("usage: ScaleCurve write DIR N | ScaleCurve lsp REPO DIR N...");
      System.exit(2);
    }
  }

  private static void write(Path dir, int count) throws IOException {
    Files.createDirectories(dir);
    for (int i = 0; i < count; i++) {
      Files.writeString(dir.resolve(String.format(Locale.ROOT, "app-%05d.yaml", i)), ManifestGenerator.file(i));
    }
  }

  /**
   * Prints {@code N, text MB, seconds to diagnose all, idle RSS after GC, peak RSS (VmHWM), RSS, RSS after
   * GC, idle heap used after GC, heap used after GC}, memory in MB.
   */
  private static void lsp(Path repo, Path dir, int count) throws Exception {
    List<Path> files;
    try (Stream<Path> list = Files.list(dir)) {
      files = list.filter(p -> p.toString().endsWith(".yaml")).sorted().limit(count).toList();
    }
    if (files.size() < count) {
      throw new IllegalStateException("only " + files.size() + " manifests in " + dir + ", " + count + " asked for");
    }
    List<String> texts = new ArrayList<>();
    long bytes = 0;
    for (Path f : files) {
      String text = Files.readString(f);
      texts.add(text);
      bytes += text.getBytes(StandardCharsets.UTF_8).length;
    }
    try (LspClient client = LspClient.start(repo)) {
      long pid = client.pid();
      gc(pid);
      double idleRss = status(pid, "VmRSS:");
      double idleHeap = heapUsedMb(pid);
      long start = System.nanoTime();
      for (int i = 0; i < files.size(); i++) {
        client.open(files.get(i).toUri().toString(), texts.get(i));
      }
      long deadline = start + TimeUnit.MINUTES.toNanos(15);
      while (client.documentsPublished() < files.size()) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("only " + client.documentsPublished() + " of " + files.size()
              + " documents got diagnostics");
        }
        Thread.sleep(20);
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      double hwm = status(pid, "VmHWM:");
      double rss = status(pid, "VmRSS:");
      gc(pid);
      double settled = status(pid, "VmRSS:");
      double heap = heapUsedMb(pid);
      System.out.printf(Locale.ROOT, "%d\t%.2f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f%n", count, bytes / 1e6, seconds,
          idleRss, hwm, rss, settled, idleHeap, heap);
    }
  }

  private static String jcmd(long pid, String command) throws Exception {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException("jcmd " + command + " failed: " + out);
    }
    return out;
  }

  /** A full collection; the pause lets the collector hand pages back before memory is read. */
  private static void gc(long pid) throws Exception {
    jcmd(pid, "GC.run");
    Thread.sleep(500);
  }

  /** The Java heap in use, summed over its generations (metaspace apart), in MB. */
  private static double heapUsedMb(long pid) throws Exception {
    Matcher m = HEAP_USED.matcher(jcmd(pid, "GC.heap_info"));
    long kb = 0;
    while (m.find()) {
      kb += Long.parseLong(m.group(1));
    }
    return kb / 1024.0;
  }

  /** A field of {@code /proc/PID/status} in kB, as MB. */
  private static double status(long pid, String field) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
      if (line.startsWith(field)) {
        return Long.parseLong(line.replaceAll("\\D", "")) / 1024.0;
      }
    }
    throw new IllegalStateException("no " + field + " for process " + pid);
  }
}
