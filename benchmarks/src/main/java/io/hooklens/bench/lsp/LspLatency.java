package io.hooklens.bench.lsp;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.eclipse.lsp4j.CompletionList;
import org.eclipse.lsp4j.CompletionParams;
import org.eclipse.lsp4j.DidChangeTextDocumentParams;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.TextDocumentContentChangeEvent;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.eclipse.lsp4j.VersionedTextDocumentIdentifier;

/**
 * The language server latency and memory harness: hooklens and yaml-language-server in one run, each a
 * real child process spoken to over stdio JSON-RPC.
 *
 * <ol>
 *   <li>Generates a manifest of about {@code --lines} lines ({@link ManifestGenerator}) and a list of
 *       small incremental edits at its edit sites, alternating so that each edit changes the
 *       diagnostics, and a Kubernetes JSON schema ({@link KubernetesSchema}).
 *   <li>Starts {@code ./hooklens lsp} (the launcher, with the JVM flags it gives the server and the
 *       server's default settings), opens the file, waits for its diagnostics, sends the warm-up edits,
 *       then the measured ones, one at a time: each is timed from sending {@code didChange} to the
 *       arrival of {@code publishDiagnostics} for that version. Then completion requests, if the
 *       server offers completion.
 *   <li>Runs {@code yaml-ls/latency.js} twice with the same file and edits: yaml-language-server as
 *       shipped (a fixed 200 ms validation delay) and with that delay set to 0.
 *   <li>Starts a fresh server, reads its resident memory idle, opens {@code --docs} real manifests,
 *       waits for all their diagnostics, lets the JVM collect garbage and reads it again.
 * </ol>
 *
 * <p>Usage: {@code LspLatency [--repo DIR] [--lines 5000] [--edits 300] [--warmup 300] [--docs 500]
 * [--corpus DIR] [--skip-yaml-ls] [--skip-memory]}
 */
public final class LspLatency {
  /** How many times the file is opened again on the warm server. */
  static final int WARM_OPENS = 20;
  private static final Gson GSON = new GsonBuilder().create();

  private Path repo = Path.of("").toAbsolutePath();
  private Path corpus;
  private int lines = 5000;
  private int edits = 300;
  private int warmup = 300;
  private int docs = 500;
  private boolean yamlLs = true;
  private boolean memory = true;

  private LspLatency() {}

  public static void main(String[] args) throws Exception {
    LspLatency h = new LspLatency();
    h.parse(args);
    h.run();
    System.exit(0);
  }

  private void parse(String[] args) {
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--repo" -> repo = Path.of(args[++i]).toAbsolutePath();
        case "--corpus" -> corpus = Path.of(args[++i]).toAbsolutePath();
        case "--lines" -> lines = Integer.parseInt(args[++i]);
        case "--edits" -> edits = Integer.parseInt(args[++i]);
        case "--warmup" -> warmup = Integer.parseInt(args[++i]);
        case "--docs" -> docs = Integer.parseInt(args[++i]);
        case "--skip-yaml-ls" -> yamlLs = false;
        case "--skip-memory" -> memory = false;
        default -> throw new IllegalArgumentException("unknown argument " + a);
      }
    }
    if (corpus == null) {
      corpus = repo.resolve("../shared/corpus").normalize();
    }
  }

  private void run() throws Exception {
    Path work = repo.resolve("benchmarks/target/lsp-latency");
    Files.createDirectories(work);
    ManifestGenerator.Manifest manifest = ManifestGenerator.generate(lines);
    Path file = work.resolve("manifest.yaml");
    Files.writeString(file, manifest.text());
    List<TextDocumentContentChangeEvent> changes = changes(manifest, warmup + edits);
    Path editsFile = work.resolve("edits.json");
    JsonObject editsJson = new JsonObject();
    editsJson.add("warmup", GSON.toJsonTree(changes.subList(0, warmup)));
    editsJson.add("measured", GSON.toJsonTree(changes.subList(warmup, changes.size())));
    Files.writeString(editsFile, GSON.toJson(editsJson));
    System.out.printf(Locale.ROOT, "manifest: %s, %d lines, %d documents, %d planted problems, %d edit sites%n",
        file, manifest.lines(), manifest.text().split("(?m)^---$").length - 1, manifest.plantedProblems(),
        manifest.sites().size());
    System.out.printf(Locale.ROOT, "edits: %d warm-up, %d measured; machine: %d cores, Java %s, load average %s%n",
        warmup, edits, Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"), load());

    Hooklens ours = hooklens(file, manifest, changes);
    System.out.println();
    System.out.println("hooklens lsp (" + ours.server + ")");
    System.out.printf(Locale.ROOT, "  first diagnostics after didOpen: %.1f ms (%d diagnostics)%n",
        ours.firstMs, ours.firstCount);
    System.out.println("  didChange -> publishDiagnostics: " + Stats.of(ours.samples)
        + "  (diagnostics per version: " + range(ours.counts) + ")");
    System.out.printf(Locale.ROOT, "  server CPU time per measured edit: %.1f ms%n", ours.cpuPerEditMs);
    System.out.println("  didOpen of the same file on the warm server: " + Stats.of(ours.warmOpens));
    for (Completion c : ours.completions) {
      System.out.println("  completion " + c.where + ": " + (c.samples == null ? "not available (the server does"
          + " not offer completionProvider)" : Stats.of(c.samples) + " (" + c.items + " items)"));
    }

    Baseline shipped = null;
    Baseline noDelay = null;
    if (yamlLs) {
      Path schema = work.resolve("kubernetes-schema.json");
      Files.writeString(schema, KubernetesSchema.generate());
      shipped = yamlLs(file, editsFile, schema, false);
      noDelay = yamlLs(file, editsFile, schema, true);
      for (Baseline b : List.of(shipped, noDelay)) {
        System.out.println();
        System.out.println(b.server + (b.noDelay ? ", validation delay set to 0" : ", as shipped (200 ms delay)"));
        System.out.printf(Locale.ROOT, "  first diagnostics after didOpen: %.1f ms (%d diagnostics)%n",
            b.firstMs, b.firstCount);
        System.out.println("  didChange -> publishDiagnostics: " + Stats.of(b.samples)
            + "  (diagnostics per version: " + range(b.counts) + ")");
        System.out.printf(Locale.ROOT, "  server CPU time per measured edit: %.1f ms%n", b.cpuPerEditMs);
        System.out.println("  didOpen of the same file on the warm server: " + Stats.of(b.warmOpens));
      }
    }

    Memory mem = memory ? memory() : null;
    System.out.println();
    System.out.println("load average at the end: " + load());

    System.out.println();
    System.out.println("| measure | hooklens | yaml-ls as shipped | yaml-ls, no delay |");
    System.out.println("|---|---|---|---|");
    Stats o = Stats.of(ours.samples);
    Stats s = shipped == null ? null : Stats.of(shipped.samples);
    Stats n = noDelay == null ? null : Stats.of(noDelay.samples);
    row("diagnostics p50 (ms)", o.p50, s == null ? null : s.p50, n == null ? null : n.p50);
    row("diagnostics p90 (ms)", o.p90, s == null ? null : s.p90, n == null ? null : n.p90);
    row("diagnostics p99 (ms)", o.p99, s == null ? null : s.p99, n == null ? null : n.p99);
    row("diagnostics max (ms)", o.max, s == null ? null : s.max, n == null ? null : n.max);
    row("server CPU per edit (ms)", ours.cpuPerEditMs, shipped == null ? null : shipped.cpuPerEditMs,
        noDelay == null ? null : noDelay.cpuPerEditMs);
    if (s != null) {
      System.out.printf(Locale.ROOT, "| **speed-up p50** (yaml-ls / hooklens) | | **%.1f×** | **%.1f×** |%n",
          s.p50 / o.p50, n.p50 / o.p50);
      System.out.printf(Locale.ROOT, "| **speed-up p99** (yaml-ls / hooklens) | | **%.1f×** | **%.1f×** |%n",
          s.p99 / o.p99, n.p99 / o.p99);
    }
    for (Completion c : ours.completions) {
      if (c.samples == null) {
        System.out.println("| completion " + c.where + " | not available | | |");
      } else {
        Stats cs = Stats.of(c.samples);
        System.out.printf(Locale.ROOT, "| completion %s p50 / p99 (ms) | %.2f / %.2f | | |%n", c.where, cs.p50, cs.p99);
      }
    }
    if (mem != null) {
      System.out.printf(Locale.ROOT, "| RSS idle, after GC (MB) | %.0f | | |%n", mem.idleMb);
      System.out.printf(Locale.ROOT, "| RSS with %d open documents, after GC (MB) | %.0f | | |%n", mem.docs, mem.loadedMb);
    }
  }

  /** The 1, 5 and 15 minute load averages: how busy the machine was while measuring. */
  private static String load() throws IOException {
    String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
    return f[0] + " " + f[1] + " " + f[2];
  }

  private static void row(String what, double ours, Double shipped, Double noDelay) {
    System.out.printf(Locale.ROOT, "| %s | %.1f | %s | %s |%n", what, ours,
        shipped == null ? "-" : String.format(Locale.ROOT, "%.1f", shipped),
        noDelay == null ? "-" : String.format(Locale.ROOT, "%.1f", noDelay));
  }

  private static String range(List<Integer> counts) {
    return counts.stream().mapToInt(Integer::intValue).min().orElse(0) + " to "
        + counts.stream().mapToInt(Integer::intValue).max().orElse(0);
  }

  /** The edits: site after site, top to bottom and again, each toggling its site's text. */
  static List<TextDocumentContentChangeEvent> changes(ManifestGenerator.Manifest manifest, int count) {
    List<ManifestGenerator.EditSite> sites = manifest.sites();
    boolean[] toggled = new boolean[sites.size()];
    List<TextDocumentContentChangeEvent> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int k = i % sites.size();
      ManifestGenerator.EditSite site = sites.get(k);
      String from = toggled[k] ? site.b() : site.a();
      String to = toggled[k] ? site.a() : site.b();
      toggled[k] = !toggled[k];
      Range r = new Range(new Position(site.line(), site.column()),
          new Position(site.line(), site.column() + from.length()));
      TextDocumentContentChangeEvent e = new TextDocumentContentChangeEvent(r, to);
      out.add(e);
    }
    return out;
  }

  record Completion(String where, List<Double> samples, int items) {}

  record Hooklens(String server, double firstMs, int firstCount, List<Double> samples, List<Integer> counts,
      double cpuPerEditMs, List<Completion> completions, List<Double> warmOpens) {}

  /**
   * CPU time a process has used (user and system, all threads), from {@code /proc}: what an edit costs
   * whatever else the machine is doing.
   */
  static double cpuMs(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
    // Fields after the command name, which is in parentheses and may hold spaces.
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
    return ticks * 1000.0 / CLOCK_TICKS;
  }

  /** USER_HZ, which Linux fixes at 100 for /proc on every architecture Java runs on. */
  private static final int CLOCK_TICKS = 100;

  private Hooklens hooklens(Path file, ManifestGenerator.Manifest manifest, List<TextDocumentContentChangeEvent> all)
      throws Exception {
    try (LspClient client = LspClient.start(repo)) {
      String uri = file.toUri().toString();
      long t0 = System.nanoTime();
      CompletableFuture<LspClient.Arrival> first = client.expect(uri, 1);
      client.open(uri, manifest.text());
      LspClient.Arrival a = first.get(60, TimeUnit.SECONDS);
      double firstMs = (a.nanos() - t0) / 1e6;
      int version = 1;
      List<Double> samples = new ArrayList<>();
      List<Integer> counts = new ArrayList<>();
      double cpuStart = 0;
      for (int i = 0; i < all.size(); i++) {
        if (i == warmup) {
          cpuStart = cpuMs(client.pid());
        }
        version++;
        CompletableFuture<LspClient.Arrival> next = client.expect(uri, version);
        long start = System.nanoTime();
        client.server().getTextDocumentService().didChange(new DidChangeTextDocumentParams(
            new VersionedTextDocumentIdentifier(uri, version), List.of(all.get(i))));
        LspClient.Arrival got = next.get(30, TimeUnit.SECONDS);
        if (i >= warmup) {
          samples.add((got.nanos() - start) / 1e6);
          counts.add(got.count());
        }
      }
      double cpuPerEdit = (cpuMs(client.pid()) - cpuStart) / edits;
      List<Completion> completions = new ArrayList<>();
      boolean offered = client.initializeResult().getCapabilities().getCompletionProvider() != null;
      String[] text = manifest.text().split("\n", -1);
      completions.add(completion(client, offered, uri, "helm.sh/hook value", valuePosition(text, "    helm.sh/hook: ")));
      completions.add(completion(client, offered, uri, "in annotations", keyPosition(text, "    helm.sh/hook-delete-policy")));
      String name = client.initializeResult().getServerInfo() == null ? "hooklens"
          : client.initializeResult().getServerInfo().getName() + " " + client.initializeResult().getServerInfo().getVersion();
      return new Hooklens(name, firstMs, a.count(), samples, counts, cpuPerEdit, completions, warmOpens(client, file,
          manifest.text()));
    }
  }

  /**
   * The same file opened again under new names on the warm server, one after the other, each closed once its
   * diagnostics arrive: from {@code didOpen} to its first diagnostics, in milliseconds.
   */
  private static List<Double> warmOpens(LspClient client, Path file, String text) throws Exception {
    List<Double> out = new ArrayList<>();
    for (int i = 0; i < WARM_OPENS; i++) {
      String uri = file.resolveSibling("manifest-open-" + i + ".yaml").toUri().toString();
      CompletableFuture<LspClient.Arrival> first = client.expect(uri, 1);
      long start = System.nanoTime();
      client.open(uri, text);
      out.add((first.get(60, TimeUnit.SECONDS).nanos() - start) / 1e6);
      client.close(uri);
    }
    return out;
  }

  /** After the first event of the first {@code helm.sh/hook:} line, where a comma would follow. */
  private static Position valuePosition(String[] text, String prefix) {
    for (int i = 0; i < text.length; i++) {
      if (text[i].startsWith(prefix)) {
        int comma = text[i].indexOf(',');
        return new Position(i, comma > 0 ? comma : text[i].length());
      }
    }
    throw new IllegalStateException("no line starts with " + prefix);
  }

  /** Inside the key of an annotation, after {@code helm.sh/hook}. */
  private static Position keyPosition(String[] text, String prefix) {
    for (int i = 0; i < text.length; i++) {
      if (text[i].startsWith(prefix)) {
        return new Position(i, "    helm.sh/hook".length());
      }
    }
    throw new IllegalStateException("no line starts with " + prefix);
  }

  private Completion completion(LspClient client, boolean offered, String uri, String where, Position at)
      throws Exception {
    if (!offered) {
      return new Completion(where, null, 0);
    }
    List<Double> samples = new ArrayList<>();
    int items = 0;
    for (int i = 0; i < warmup + edits; i++) {
      long start = System.nanoTime();
      var result = client.server().getTextDocumentService()
          .completion(new CompletionParams(new TextDocumentIdentifier(uri), at)).get(30, TimeUnit.SECONDS);
      double ms = (System.nanoTime() - start) / 1e6;
      items = result == null ? 0 : result.isLeft() ? result.getLeft().size()
          : ((CompletionList) result.getRight()).getItems().size();
      if (i >= warmup) {
        samples.add(ms);
      }
    }
    return new Completion(where, samples, items);
  }

  record Baseline(String server, boolean noDelay, double firstMs, int firstCount, List<Double> samples,
      List<Integer> counts, double cpuPerEditMs, List<Double> warmOpens) {}

  private Baseline yamlLs(Path file, Path editsFile, Path schema, boolean noDelay) throws Exception {
    Path script = repo.resolve("benchmarks/yaml-ls/latency.js");
    List<String> cmd = new ArrayList<>(List.of("node", script.toString(), "--file", file.toString(),
        "--edits", editsFile.toString(), "--schema", schema.toString()));
    if (noDelay) {
      cmd.add("--no-delay");
    }
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String out;
    try (InputStream in = p.getInputStream()) {
      out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    if (p.waitFor() != 0) {
      throw new IllegalStateException("yaml-ls/latency.js failed (exit " + p.exitValue() + "); did `npm ci` run"
          + " in benchmarks/yaml-ls?");
    }
    JsonObject o = JsonParser.parseString(out.strip()).getAsJsonObject();
    return new Baseline(o.get("server").getAsString() + " on Node " + o.get("node").getAsString(), noDelay,
        o.get("firstDiagnosticsMs").getAsDouble(), o.get("firstDiagnostics").getAsInt(),
        doubles(o.getAsJsonArray("samplesMs")), ints(o.getAsJsonArray("diagnosticCounts")),
        o.get("cpuPerEditMs").getAsDouble(), doubles(o.getAsJsonArray("warmOpensMs")));
  }

  private static List<Double> doubles(JsonArray a) {
    List<Double> out = new ArrayList<>();
    a.forEach(e -> out.add(e.getAsDouble()));
    return out;
  }

  private static List<Integer> ints(JsonArray a) {
    List<Integer> out = new ArrayList<>();
    a.forEach(e -> out.add(e.getAsInt()));
    return out;
  }

  record Memory(int docs, double idleMb, double loadedMb) {}

  private Memory memory() throws Exception {
    List<Path> files = documents(docs);
    try (LspClient client = LspClient.start(repo)) {
      double idle = settledRssMb(client.pid());
      for (Path f : files) {
        client.open(f.toUri().toString(), Files.readString(f));
      }
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
      while (client.documentsPublished() < files.size()) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("only " + client.documentsPublished() + " of " + files.size()
              + " documents got diagnostics");
        }
        Thread.sleep(50);
      }
      double loaded = settledRssMb(client.pid());
      System.out.println();
      System.out.printf(Locale.ROOT, "memory: idle %.0f MB; %d open documents (%.1f MB of text), all diagnosed:"
          + " %.0f MB RSS after a full GC%n", idle, files.size(), files.stream().mapToLong(LspLatency::size).sum()
          / 1e6, loaded);
      return new Memory(files.size(), idle, loaded);
    }
  }

  private static long size(Path p) {
    try {
      return Files.size(p);
    } catch (IOException e) {
      return 0;
    }
  }

  /**
   * Realistic documents: every corpus manifest, the repository's examples, then chart templates of
   * the corpus charts, in name order, until there are {@code count}.
   */
  private List<Path> documents(int count) throws IOException {
    List<Path> out = new ArrayList<>();
    for (Path dir : List.of(corpus.resolve("manifests"), corpus.resolve("openshift"), repo.resolve("examples"),
        corpus.resolve("charts"))) {
      if (!Files.isDirectory(dir)) {
        continue;
      }
      try (Stream<Path> walk = Files.walk(dir)) {
        walk.filter(Files::isRegularFile)
            .filter(p -> p.toString().matches(".*\\.(ya?ml|json)$"))
            .filter(p -> !dir.endsWith("charts") || p.getParent().getFileName().toString().equals("templates"))
            .sorted()
            .forEach(out::add);
      }
    }
    if (out.size() < count) {
      throw new IllegalStateException("only " + out.size() + " documents under " + corpus + "; use --docs or --corpus");
    }
    return out.subList(0, count);
  }

  /** Resident memory after a full collection, read as the kernel counts it. */
  private static double settledRssMb(long pid) throws Exception {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Process gc = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.run")
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    gc.waitFor(60, TimeUnit.SECONDS);
    Thread.sleep(500);
    for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("\\D", "")) / 1024.0;
      }
    }
    throw new IllegalStateException("no VmRSS for process " + pid);
  }

  /** Nearest-rank percentiles of a sample. */
  record Stats(int n, double p50, double p90, double p99, double max) {
    static Stats of(List<Double> samples) {
      double[] s = samples.stream().mapToDouble(Double::doubleValue).toArray();
      Arrays.sort(s);
      return new Stats(s.length, rank(s, 50), rank(s, 90), rank(s, 99), s[s.length - 1]);
    }

    private static double rank(double[] sorted, int p) {
      int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
      return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "n=%d p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms", n, p50, p90, p99, max);
    }
  }
}
