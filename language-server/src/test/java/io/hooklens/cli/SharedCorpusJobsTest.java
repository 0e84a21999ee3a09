package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hooklens.TestPaths;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The corpus of {@code HOOKLENS_CORPUS} (100 charts, plain and OpenShift manifests) reports the same with one job and
 * with four. Some charts render names with {@code randAlphaNum} and the like, so their findings differ from one run
 * to the next whatever the jobs: a chart whose findings differ must differ between two runs of its own with one job.
 */
@Tag("slow")
class SharedCorpusJobsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void theCorpusReportsTheSameWithOneJobAndFour() throws Exception {
    Path corpus = TestPaths.requireSharedCorpus();
    String[] paths = {corpus.resolve("manifests").toString(), corpus.resolve("openshift").toString(),
        corpus.resolve("charts").toString()};
    CliRun one = CliRun.of(args("1", paths));
    CliRun four = CliRun.of(args("4", paths));
    assertEquals(one.err(), four.err(), "standard error");
    assertEquals(one.exit(), four.exit(), "exit code");
    Map<String, String> first = byInput(one.out(), corpus);
    Map<String, String> second = byInput(four.out(), corpus);
    assertEquals(List.copyOf(first.keySet()), List.copyOf(second.keySet()), "inputs with findings, in order");
    Set<String> differ = new TreeSet<>();
    for (String input : first.keySet()) {
      if (!first.get(input).equals(second.get(input))) {
        differ.add(input);
      }
    }
    for (String input : differ) {
      // Only a chart that renders differently by itself may differ.
      String chart = corpus.resolve(input).toString();
      assertNotEquals(CliRun.of(args("1", chart)).out(), CliRun.of(args("1", chart)).out(),
          input + " differs with four jobs but not between two runs of its own");
    }
    assertEquals(JSON.readTree(one.out()).path("summary"), JSON.readTree(four.out()).path("summary"));
  }

  private static String[] args(String jobs, String... paths) {
    List<String> all = new ArrayList<>(List.of("lint", "--jobs", jobs, "-f", "json"));
    all.addAll(List.of(paths));
    return all.toArray(String[]::new);
  }

  /** The findings of a JSON report by input (a chart, or a file), in report order. */
  private static Map<String, String> byInput(String report, Path corpus) throws Exception {
    Map<String, String> out = new LinkedHashMap<>();
    for (JsonNode f : JSON.readTree(report).path("findings")) {
      Path rel = corpus.relativize(Path.of(f.path("file").asText()));
      String input = rel.getName(0).toString().equals("charts") ? rel.subpath(0, 2).toString() : rel.toString();
      out.merge(input, f.toString(), (a, b) -> a + "\n" + b);
    }
    return out;
  }
}
