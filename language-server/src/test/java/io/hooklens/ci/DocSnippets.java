package io.hooklens.ci;

import io.hooklens.TestPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The {@code yaml} blocks of docs/ci.md that the CI tests run, so that what users copy is what was tested. */
final class DocSnippets {
  private static final Pattern YAML_BLOCK = Pattern.compile("(?ms)^```yaml\\n(.*?)^```");

  private DocSnippets() {}

  /** The first {@code yaml} block of docs/ci.md that contains {@code text}. */
  static String ciYaml(String text) throws IOException {
    Matcher m = YAML_BLOCK.matcher(Files.readString(TestPaths.repoRoot().resolve("docs/ci.md")));
    while (m.find()) {
      if (m.group(1).contains(text)) {
        return m.group(1);
      }
    }
    throw new AssertionError("docs/ci.md has no yaml block with " + text);
  }
}
