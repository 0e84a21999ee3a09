package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A manifest saved as UTF-16 is named as such by every command, not called binary, and left as it is. */
class InputEncodingTest {
  private static final String SAYS = "The file is UTF-16LE encoded (no byte-order mark; every other byte is NUL);"
      + " save it as UTF-8";

  @TempDir
  Path dir;

  @Test
  void lintReportsTheEncodingAtTheStartOfTheFile() throws Exception {
    Path file = utf16("pod.yaml", "\uFEFF" + LintCommandTest.OVER_BUDGET);
    CliRun r = CliRun.of("lint", "--color", "never", file.toString());
    assertEquals(1, r.exit(), r.err());
    assertTrue(r.out().contains(file + ":1:1: error HL002 The file is UTF-16LE encoded (byte-order mark FF FE);"
        + " save it as UTF-8."), r.out());
  }

  @Test
  void fixLeavesTheFileAsItIsAndSaysWhy() throws Exception {
    Path file = utf16("pod.yaml", LintFixCommandTest.BROKEN.substring(1));
    byte[] before = Files.readAllBytes(file);
    CliRun r = CliRun.of("lint", "--fix", "--color", "never", file.toString());
    assertEquals(1, r.exit(), r.err());
    assertTrue(r.out().contains(file + ":1:1: error HL002 " + SAYS + "."), r.out());
    assertEquals("", r.err(), "nothing is fixed");
    assertArrayEquals(before, Files.readAllBytes(file));
  }

  @Test
  void hooksSaysItInOneLine() throws Exception {
    Path file = utf16("hook.yaml", LintCommandTest.OVER_BUDGET);
    CliRun r = CliRun.of("hooks", file.toString());
    assertEquals(2, r.exit());
    assertEquals(List.of("hooklens: " + file + ": the f" + SAYS.substring(5)), r.err().lines().toList());
  }

  private Path utf16(String name, String text) throws Exception {
    return Files.write(dir.resolve(name), text.getBytes(Charset.forName("UTF-16LE")));
  }
}
