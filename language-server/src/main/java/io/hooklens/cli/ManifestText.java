package io.hooklens.cli;

import io.hooklens.core.engine.Linter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Reads a manifest file that a command needs as text, as the linter reads files: size limit, strict UTF-8. */
final class ManifestText {
  private ManifestText() {}

  /** The file's text, or empty after saying on {@code err} why it cannot be read. */
  static Optional<String> read(Path file, PrintWriter err) throws IOException {
    Linter.Decoded d = Linter.decode(Files.readAllBytes(file));
    if (d.refused()) {
      // The linter's sentence, after the file's name as every error line has it.
      err.println("hooklens: " + file + ": " + d.refusalClause());
      return Optional.empty();
    }
    return Optional.of(d.text());
  }
}
