package io.hooklens.cli;

import io.hooklens.core.engine.Linter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Reads a manifest file that a command needs as text: at most the linter's size limit, strict UTF-8. */
final class ManifestText {
  private ManifestText() {}

  /** The file's text, or empty after saying on {@code err} why it cannot be read. */
  static Optional<String> read(Path file, PrintWriter err) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    if (bytes.length > Linter.MAX_BYTES) {
      err.println("hooklens: " + file + ": larger than " + Linter.MAX_BYTES / (1024 * 1024) + " MiB");
      return Optional.empty();
    }
    try {
      return Optional.of(StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes)).toString());
    } catch (CharacterCodingException e) {
      err.println("hooklens: " + file + ": not UTF-8 text");
      return Optional.empty();
    }
  }
}
