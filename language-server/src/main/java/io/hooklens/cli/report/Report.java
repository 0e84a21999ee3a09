package io.hooklens.cli.report;

import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.RuleRegistry;
import io.hooklens.core.engine.Severity;
import java.util.List;
import java.util.OptionalInt;

/**
 * Everything one lint run found, ready to be written in any format.
 *
 * @param fixed how many problems {@code --fix} fixed; empty without {@code --fix}
 */
public record Report(List<FileResult> files, RuleRegistry registry, String toolVersion, OptionalInt fixed) {
  public Report(List<FileResult> files, RuleRegistry registry, String toolVersion) {
    this(files, registry, toolVersion, OptionalInt.empty());
  }

  public long count(Severity s) {
    return files.stream().flatMap(f -> f.result().findings().stream()).filter(f -> f.severity() == s).count();
  }

  public int suppressed() {
    return files.stream().mapToInt(f -> f.result().suppressed()).sum();
  }

  public List<Finding> findings() {
    return files.stream().flatMap(f -> f.result().findings().stream()).toList();
  }
}
