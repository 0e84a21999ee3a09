package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code hooklens lint --fix} changes a file's content only: its owner, group, mode and names stay. */
class FixKeepsFileTest {
  /** Owner and group that are neither the test's nor, as root, the new file's. */
  private static final int UID = 12345;
  private static final int GID = 23456;

  @TempDir
  Path dir;

  @Test
  void aFileOfAnotherUserKeepsItsOwnerGroupAndMode() throws Exception {
    assumeTrue(processUid() == 0, "only root can give a file to another user");
    Path file = broken("pod.yaml");
    Files.setAttribute(file, "unix:uid", UID);
    Files.setAttribute(file, "unix:gid", GID);
    Files.setAttribute(file, "unix:mode", 0640);

    CliRun r = CliRun.of("lint", "--fix", "--color", "never", file.toString());

    assertTrue(r.err().contains("fixed 2 problems in " + file), r.err());
    assertEquals(LintFixCommandTest.FIXED, Files.readString(file, StandardCharsets.UTF_8));
    Map<String, Object> after = Files.readAttributes(file, "unix:uid,gid,mode");
    assertEquals(UID, after.get("uid"));
    assertEquals(GID, after.get("gid"));
    assertEquals(0640, (Integer) after.get("mode") & 07777);
    try (var s = Files.list(dir)) {
      assertEquals(1, s.count(), "no temporary file is left behind");
    }
  }

  @Test
  void aHardLinkedFileIsFixedInPlaceSoEveryNameSeesTheFix() throws Exception {
    Path file = broken("pod.yaml");
    Path other = Files.createLink(dir.resolve("copy.yaml"), file);
    Object inode = Files.readAttributes(file, "unix:ino").get("ino");

    CliRun r = CliRun.of("lint", "--fix", "--color", "never", file.toString());

    assertTrue(r.err().contains("fixed 2 problems in " + file), r.err());
    assertEquals(LintFixCommandTest.FIXED, Files.readString(file, StandardCharsets.UTF_8));
    assertEquals(LintFixCommandTest.FIXED, Files.readString(other, StandardCharsets.UTF_8));
    assertEquals(inode, Files.readAttributes(file, "unix:ino").get("ino"));
    assertEquals(2, Files.getAttribute(file, "unix:nlink"));
  }

  @Test
  void aSymbolicLinkStaysALinkAndItsTargetIsFixed() throws Exception {
    Path target = broken("real.yaml");
    Path link = Files.createSymbolicLink(dir.resolve("pod.yaml"), target.getFileName());

    CliRun r = CliRun.of("lint", "--fix", "--color", "never", link.toString());

    assertTrue(r.err().contains("fixed 2 problems in " + link), r.err());
    assertTrue(Files.isSymbolicLink(link));
    assertEquals(target.getFileName(), Files.readSymbolicLink(link));
    assertEquals(LintFixCommandTest.FIXED, Files.readString(target, StandardCharsets.UTF_8));
  }

  private Path broken(String name) throws Exception {
    Path file = dir.resolve(name);
    Files.writeString(file, LintFixCommandTest.BROKEN, StandardCharsets.UTF_8);
    return file;
  }

  /** The user this process runs as: the owner of a file it creates. */
  private int processUid() throws Exception {
    Path probe = Files.createTempFile(dir, "uid", ".probe");
    try {
      return (Integer) Files.getAttribute(probe, "unix:uid");
    } finally {
      Files.delete(probe);
    }
  }
}
