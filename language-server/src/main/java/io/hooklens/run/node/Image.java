package io.hooklens.run.node;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * An image the embedded node runs containers from: its unpacked filesystem and, when it came from an archive,
 * its config's {@code Entrypoint}, {@code Cmd}, {@code Env} ({@code NAME=value} each), {@code WorkingDir}, {@code User}
 * ({@code user[:group]}, each a name or a number; empty for root) and {@code StopSignal} (null for SIGTERM). An
 * image given as a directory has none of them.
 */
public record Image(Path root, List<String> entrypoint, List<String> cmd, List<String> env, String workingDir,
    String user, String stopSignal) {
  public Image {
    entrypoint = List.copyOf(entrypoint);
    cmd = List.copyOf(cmd);
    env = List.copyOf(env);
  }

  /** An unpacked filesystem alone (e.g. from docker export), which keeps no config. */
  public static Image root(Path root) {
    return new Image(root, List.of(), List.of(), List.of(), null, "", null);
  }

  /**
   * What a container runs, as a container runtime decides it: its {@code command} (with its {@code args}) when it
   * has one, else the image's entrypoint with the container's {@code args} or, without them, the image's
   * {@code Cmd}. Empty when there is nothing to run; {@code image} is null when it is not known here.
   */
  public static List<String> argv(Image image, List<String> command, List<String> args) {
    List<String> c = command == null ? List.of() : command;
    List<String> a = args == null ? List.of() : args;
    if (!c.isEmpty()) {
      return concat(c, a);
    }
    if (image == null) {
      return List.of();
    }
    return concat(image.entrypoint(), a.isEmpty() ? image.cmd() : a);
  }

  private static List<String> concat(List<String> a, List<String> b) {
    return Stream.concat(a.stream(), b.stream()).toList();
  }
}
