package io.hooklens.intellij;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServerCommandTest {
  private static final Path REPO = Path.of(System.getProperty("hooklens.repoRoot", ".."));

  @Test
  void startsTheJarsLspCommandWithTheRuntimesJava() {
    Path home = Path.of("/opt/ide/jbr");
    JavaRuntime runtime = new JavaRuntime(home, home.resolve("bin/java"), "the IDE's runtime");
    List<String> command = ServerCommand.of(runtime, Path.of("/plugins/hooklens/server/hooklens.jar"));

    List<String> expected = new ArrayList<>();
    expected.add("/opt/ide/jbr/bin/java");
    expected.addAll(ServerCommand.JVM_FLAGS);
    expected.addAll(List.of("-jar", "/plugins/hooklens/server/hooklens.jar", "lsp"));
    assertEquals(expected, command);
  }

  /** The launcher's flags are the server's tuning; the plugin keeps them, as the VS Code extension does. */
  @Test
  void jvmFlagsAreTheLaunchersForTheLanguageServer() throws IOException {
    String launcher = Files.readString(REPO.resolve("hooklens"));
    String opts = launcher.lines().filter(l -> l.startsWith("opts=(")).findFirst().orElseThrow();
    List<String> flags = Arrays.asList(opts.substring("opts=(".length(), opts.lastIndexOf(')')).split(" "));
    assertEquals(flags, ServerCommand.JVM_FLAGS);
  }
}
