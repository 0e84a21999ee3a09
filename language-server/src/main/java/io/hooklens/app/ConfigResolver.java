package io.hooklens.app;

import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.ConfigReader;
import io.hooklens.core.engine.RuleRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the {@code .hooklens.yaml} that governs a file: the nearest one in the file's directory or
 * above, or the one named with {@code --config}. Each configuration file is read once; files linted side by side
 * ask from several threads.
 */
public final class ConfigResolver {
  public static final String FILE_NAME = ".hooklens.yaml";

  /**
   * A configuration with the directory its exclude globs are relative to.
   *
   * @param baseline the baseline file it names, resolved against its directory; null when it names none
   */
  public record Resolved(Config config, Path base, List<PathMatcher> excludes, Path baseline) {
    public boolean excludes(Path file) {
      Path abs = file.toAbsolutePath().normalize();
      if (base == null || !abs.startsWith(base)) {
        return false;
      }
      Path rel = base.relativize(abs);
      return excludes.stream().anyMatch(m -> m.matches(rel));
    }
  }

  /** A configuration file that cannot be used; a usage error. */
  public static final class ConfigException extends Exception {
    public ConfigException(String message) {
      super(message, null, false, false);
    }
  }

  private final RuleRegistry registry;
  private final Path explicit;
  private final Map<Path, Optional<Resolved>> byDirectory = new HashMap<>();
  private final Map<Path, Resolved> byFile = new HashMap<>();

  public ConfigResolver(RuleRegistry registry, Path explicit) {
    this.registry = registry;
    this.explicit = explicit;
  }

  /** The configuration for a file (or, for standard input, for the working directory). */
  public synchronized Resolved forFile(Path file) throws ConfigException {
    if (explicit != null) {
      return load(explicit);
    }
    Path dir = file.toAbsolutePath().normalize().getParent();
    Resolved found = dir == null ? null : find(dir);
    return found != null ? found : new Resolved(Config.DEFAULT, null, List.of(), null);
  }

  private Resolved find(Path dir) throws ConfigException {
    Optional<Resolved> cached = byDirectory.get(dir);
    if (cached != null) {
      return cached.orElse(null);
    }
    Path candidate = dir.resolve(FILE_NAME);
    Resolved r;
    if (Files.isRegularFile(candidate)) {
      r = load(candidate);
    } else {
      Path parent = dir.getParent();
      r = parent == null ? null : find(parent);
    }
    byDirectory.put(dir, Optional.ofNullable(r));
    return r;
  }

  private Resolved load(Path file) throws ConfigException {
    Path key = file.toAbsolutePath().normalize();
    Resolved r = byFile.get(key);
    if (r != null) {
      return r;
    }
    String text;
    try {
      text = Files.readString(key, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ConfigException("cannot read configuration " + file + ": " + e.getMessage());
    }
    ConfigReader.Result result = ConfigReader.read(text, registry);
    if (!result.errors().isEmpty()) {
      throw new ConfigException("invalid configuration " + file + ":\n  " + file + ":"
          + String.join("\n  " + file + ":", result.errors()));
    }
    List<PathMatcher> excludes = result.config().exclude().stream()
        .flatMap(g -> List.of(g, "**/" + g).stream())
        .map(g -> FileSystems.getDefault().getPathMatcher("glob:" + g))
        .toList();
    Path baseline;
    try {
      baseline = result.baseline() == null ? null : key.getParent().resolve(result.baseline()).normalize();
    } catch (InvalidPathException e) {
      throw new ConfigException("invalid configuration " + file + ": baseline: " + e.getMessage());
    }
    r = new Resolved(result.config(), key.getParent(), excludes, baseline);
    byFile.put(key, r);
    return r;
  }
}
