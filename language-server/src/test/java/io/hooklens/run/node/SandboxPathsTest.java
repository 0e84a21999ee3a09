package io.hooklens.run.node;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Which of the host's files under /tmp a container on the host's files gets, since its own /tmp is empty. */
class SandboxPathsTest {
  private Path dir;

  @BeforeEach
  void create() throws IOException {
    // Under the host's /tmp whatever java.io.tmpdir says: that is the folder the sandbox hides.
    dir = Files.createTempDirectory(Path.of("/tmp"), "sandbox-paths-");
    Files.createDirectories(dir.resolve("classes/io"));
    Files.writeString(dir.resolve("script.sh"), "echo hi\n");
  }

  @AfterEach
  void delete() throws IOException {
    Files.delete(dir.resolve("classes/io"));
    Files.delete(dir.resolve("classes"));
    Files.delete(dir.resolve("script.sh"));
    Files.delete(dir);
  }

  @Test
  void filesNamedAsWordsInClassPathsAndAfterEqualsAreBound() throws IOException {
    Path jar = Files.writeString(dir.resolve("app.jar"), "jar");
    String script = dir.resolve("script.sh").toString();
    try {
      assertEquals(List.of(jar, dir.resolve("script.sh")), Sandbox.namedUnderTmp(List.of(
          "java", "-cp", "/usr/share/java/x.jar:" + jar, "Main", "--script=" + script)));
    } finally {
      Files.delete(jar);
    }
  }

  @Test
  void foldersAndSocketsAreNotBoundSinceAReadOnlyMountDoesNotStopAConnect() throws IOException {
    Path socket = dir.resolve("app.sock");
    try (var server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      server.bind(UnixDomainSocketAddress.of(socket));
      assertEquals(List.of(), Sandbox.namedUnderTmp(List.of(dir.toString(), dir.resolve("classes").toString(),
          socket.toString())));
    } finally {
      Files.deleteIfExists(socket);
    }
  }

  @Test
  void aPathInAShellScriptIsBound() {
    assertEquals(List.of(dir.resolve("script.sh")), Sandbox.namedUnderTmp(List.of("sh", "-c",
        "test -e '" + dir.resolve("script.sh") + "' && cat " + dir.resolve("script.sh") + ";echo done")));
  }

  @Test
  void missingPathsTmpItselfAndPathsElsewhereAreNot() {
    assertEquals(List.of(), Sandbox.namedUnderTmp(List.of("/tmp", "/tmp/", dir.resolve("missing").toString(),
        "/etc/hostname", "sh", "-c", "ls /tmp/../etc")));
  }
}
