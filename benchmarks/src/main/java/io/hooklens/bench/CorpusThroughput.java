package io.hooklens.bench;

import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.Linter;
import io.hooklens.rules.BuiltInRules;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.Node;

/**
 * Lint throughput against its baseline, measured in the same run: snakeyaml-engine composing node
 * trees from the same bytes (decoding included in both). Each operation processes the whole
 * manifests/ and openshift/ corpus once, so the ratio of the two scores is the fraction of raw-parse
 * throughput the linter keeps.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class CorpusThroughput {
  private final List<String> names = new ArrayList<>();
  private final List<byte[]> files = new ArrayList<>();
  private Linter linter;
  private LoadSettings settings;

  @Setup
  public void load() throws IOException {
    Path corpus = Path.of(System.getProperty("hooklens.corpus", "../shared/corpus"));
    for (String part : List.of("manifests", "openshift")) {
      try (Stream<Path> s = Files.walk(corpus.resolve(part))) {
        s.filter(Files::isRegularFile).sorted().forEach(p -> {
          try {
            names.add(p.getFileName().toString());
            files.add(Files.readAllBytes(p));
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
      }
    }
    if (files.isEmpty()) {
      throw new IllegalStateException("no corpus at " + corpus + "; set -Dhooklens.corpus=DIR");
    }
    linter = new Linter(BuiltInRules.registry());
    settings = LoadSettings.builder().setCodePointLimit(Integer.MAX_VALUE).build();
  }

  @Benchmark
  public void rawCompose(Blackhole bh) {
    Compose compose = new Compose(settings);
    for (byte[] b : files) {
      String text = new String(b, StandardCharsets.UTF_8);
      try {
        for (Node n : compose.composeAllFromString(text)) {
          bh.consume(n);
        }
      } catch (YamlEngineException e) {
        // Broken files are part of the corpus; the linter reads past them, the baseline stops.
        bh.consume(e);
      }
    }
  }

  @Benchmark
  public void lint(Blackhole bh) {
    for (int i = 0; i < files.size(); i++) {
      bh.consume(linter.lint(names.get(i), files.get(i), Config.DEFAULT));
    }
  }
}
