package io.hooklens.rules;

import io.hooklens.TestPaths;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** Runs every fixture under {@code src/test/resources/rules/<id>/} through its rule's harness. */
class RuleFixturesTest {
  static Path fixturesRoot() {
    return TestPaths.repoRoot().resolve("language-server/src/test/resources/rules");
  }

  static List<Path> fixtures(String ruleId) throws IOException {
    Path dir = fixturesRoot().resolve(ruleId);
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(Files::isRegularFile).sorted().toList();
    }
  }

  @TestFactory
  Stream<DynamicTest> everyFixture() throws IOException {
    try (Stream<Path> dirs = Files.list(fixturesRoot())) {
      return dirs.filter(Files::isDirectory).sorted().toList().stream().flatMap(dir -> {
        String ruleId = dir.getFileName().toString();
        try {
          return fixtures(ruleId).stream().map(f -> DynamicTest.dynamicTest(ruleId + "/" + f.getFileName(), () -> {
            String text = Files.readString(f, StandardCharsets.UTF_8);
            if (f.getFileName().toString().startsWith("good-") && RuleHarness.markers(text).size() > 0) {
              throw new AssertionError(f + ": a good fixture must not carry expect markers");
            }
            if (f.getFileName().toString().startsWith("bad-") && RuleHarness.markers(text).isEmpty()) {
              throw new AssertionError(f + ": a bad fixture needs at least one expect marker");
            }
            RuleHarness.check(ruleId, f.getFileName().toString(), text);
          }));
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }).toList().stream();
    }
  }
}
