package io.hooklens.intellij;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The command line that starts {@code hooklens lsp} from the jar inside the plugin. */
public final class ServerCommand {
  /**
   * The JVM flags of the repository's {@code hooklens} launcher for {@code lsp}: serial GC and a bounded young
   * generation keep the long-running server's memory near its live data, a 4 MB stack suits the YAML reader's
   * recursion, and no class-data-sharing messages reach the protocol stream.
   */
  public static final List<String> JVM_FLAGS =
      List.of("-XX:+UseSerialGC", "-Xss4m", "-Xmn32m", "-Xlog:cds=off", "-Xlog:cds+dynamic=off");

  private ServerCommand() {}

  /** {@code java FLAGS -jar JAR lsp}: the server speaks LSP over its standard input and output. */
  public static List<String> of(JavaRuntime runtime, Path serverJar) {
    List<String> command = new ArrayList<>();
    command.add(runtime.java().toString());
    command.addAll(JVM_FLAGS);
    command.add("-jar");
    command.add(serverJar.toString());
    command.add("lsp");
    return List.copyOf(command);
  }
}
