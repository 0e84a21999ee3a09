package io.hooklens.app;

import io.hooklens.core.engine.RuleInfoIndex;
import io.hooklens.rules.BuiltInRules;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes the index of the built-in rules' metadata; the build runs it and puts the file beside the classes. */
public final class RuleInfoIndexFile {
  private RuleInfoIndexFile() {}

  /** Writes the index into the class output directory given. */
  public static void main(String[] args) throws IOException {
    Path out = Path.of(args[0]).resolve(RuleInfoIndex.RESOURCE);
    Files.createDirectories(out.getParent());
    Files.writeString(out, RuleInfoIndex.write(BuiltInRules.all()));
  }
}
