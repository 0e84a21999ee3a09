package io.hooklens.cli;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/** Writes files so that readers see the old content or the new, never half of it. */
final class AtomicFiles {
  private AtomicFiles() {}

  /**
   * Writes to a temporary file in the same directory and moves it over the target. An existing file
   * keeps its permissions, and a symbolic link keeps pointing where it did: the file it names is replaced.
   */
  static void write(Path target, byte[] bytes) throws IOException {
    Optional<String> refused = unwritable(target);
    if (refused.isPresent()) {
      // Checked first: the move below would replace an empty directory with the file.
      throw new IOException(refused.get());
    }
    Path real = Files.exists(target) ? target.toRealPath() : target.toAbsolutePath();
    Path tmp = Files.createTempFile(real.getParent(), ".hooklens-", ".tmp");
    try {
      Files.write(tmp, bytes);
      if (Files.exists(real)) {
        try {
          Files.setPosixFilePermissions(tmp, Files.getPosixFilePermissions(real));
        } catch (UnsupportedOperationException e) {
          // Not a POSIX file system: the new file gets the directory's defaults.
        }
      }
      try {
        Files.move(tmp, real, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, real, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /**
   * Why nothing can be written at {@code target}, as far as shows before writing: it is a directory, or the
   * directory it would be in is missing. Commands that work long before they write check it first.
   */
  static Optional<String> unwritable(Path target) {
    if (Files.isDirectory(target)) {
      return Optional.of("it is a directory");
    }
    Path dir = target.toAbsolutePath().getParent();
    if (!Files.isDirectory(dir)) {
      return Optional.of(Files.exists(dir) ? dir + " is not a directory" : "no such directory " + dir);
    }
    return Optional.empty();
  }
}
