package io.hooklens.lsp;

import io.hooklens.core.engine.Config;
import io.hooklens.core.engine.ConfigReader;
import io.hooklens.core.engine.Linter;
import io.hooklens.core.engine.RuleDescriptor;
import io.hooklens.core.engine.RuleRegistry;
import io.hooklens.core.engine.Targets;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The configuration each document is linted with: the nearest {@code .hooklens.yaml} above the
 * document (as the CLI finds it) with the editor settings on top. Settings win where both speak, as
 * CLI flags win over the file: they are what the user asked for in this editor. A configuration file
 * with errors is reported once and replaced by the defaults, so a half-typed file never stops linting.
 *
 * <p>Files are read once and kept until a {@code .hooklens.yaml} changes on disk.
 */
final class ConfigService {
  static final String FILE_NAME = ".hooklens.yaml";

  private final RuleRegistry registry;
  private final ClientLog log;
  private Settings settings = Settings.DEFAULT;
  private final Map<Path, Optional<Path>> nearestByDirectory = new HashMap<>();
  private final Map<Path, Config> byFile = new HashMap<>();
  private final Map<Optional<Path>, Config> merged = new HashMap<>();

  ConfigService(RuleRegistry registry, ClientLog log) {
    this.registry = registry;
    this.log = log;
  }

  synchronized Settings settings() {
    return settings;
  }

  synchronized void settings(Settings s) {
    settings = s;
    merged.clear();
  }

  /** Forgets every configuration file read: one was created, changed or deleted. */
  synchronized void filesChanged() {
    nearestByDirectory.clear();
    byFile.clear();
    merged.clear();
  }

  /** Whether a URI names a configuration file. */
  static boolean isConfigFile(String uri) {
    Path p = path(uri);
    return p != null && p.getFileName() != null && p.getFileName().toString().equals(FILE_NAME);
  }

  /** The configuration to lint a document with. */
  synchronized Config configFor(String uri) {
    Path file = path(uri);
    Optional<Path> config = file == null || file.getParent() == null ? Optional.empty() : nearest(file.getParent());
    return merged.computeIfAbsent(config, c -> merge(c.map(this::load).orElse(Config.DEFAULT), settings, registry));
  }

  /** The local path of a {@code file:} URI, or null for other schemes and malformed URIs. */
  static Path path(String uri) {
    try {
      URI u = URI.create(uri);
      return "file".equalsIgnoreCase(u.getScheme()) ? Path.of(u).toAbsolutePath().normalize() : null;
    } catch (IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
      return null;
    }
  }

  private Optional<Path> nearest(Path dir) {
    Optional<Path> cached = nearestByDirectory.get(dir);
    if (cached != null) {
      return cached;
    }
    Path candidate = dir.resolve(FILE_NAME);
    Optional<Path> found;
    if (Files.isRegularFile(candidate)) {
      found = Optional.of(candidate);
    } else {
      found = dir.getParent() == null ? Optional.empty() : nearest(dir.getParent());
    }
    nearestByDirectory.put(dir, found);
    return found;
  }

  private Config load(Path file) {
    Config cached = byFile.get(file);
    if (cached != null) {
      return cached;
    }
    Config config;
    try {
      ConfigReader.Result result = ConfigReader.read(Files.readString(file, StandardCharsets.UTF_8), registry);
      if (result.errors().isEmpty()) {
        config = result.config();
      } else {
        config = Config.DEFAULT;
        log.showWarning("Hooklens: " + file + " has errors; linting with the default configuration until it is"
            + " fixed:\n" + file + ":" + String.join("\n" + file + ":", result.errors()));
      }
    } catch (IOException | RuntimeException e) {
      config = Config.DEFAULT;
      log.showWarning("Hooklens: cannot read " + file + " (" + e.getMessage() + "); linting with the default"
          + " configuration");
    }
    byFile.put(file, config);
    return config;
  }

  /**
   * The file's configuration with the settings on top, rule by rule: the most specific setting of the
   * editor for a rule wins over the file's, and keeps the file's parameters for that rule.
   */
  static Config merge(Config file, Settings settings, RuleRegistry registry) {
    Targets targets = settings.targets().over(file.targets());
    Config.Charts charts = charts(file.charts(), settings.helm());
    if (settings.rules().isEmpty()) {
      return new Config(targets, file.rules(), file.exclude(), charts);
    }
    Config editor = new Config(targets, settings.rules(), List.of());
    Map<String, Config.RuleSetting> rules = new LinkedHashMap<>();
    for (RuleDescriptor d : registry.all()) {
      Config.RuleSetting mine = Linter.settingFor(d, editor);
      Config.RuleSetting theirs = Linter.settingFor(d, file);
      if (mine != null && theirs != null && theirs.params() != null) {
        rules.put(d.id(), new Config.RuleSetting(mine.severity(), mine.off(), theirs.params()));
      } else if (mine != null || theirs != null) {
        rules.put(d.id(), mine != null ? mine : theirs);
      }
    }
    return new Config(targets, rules, file.exclude(), charts);
  }

  /**
   * The editor's values files replace the file's when it names any; its set values win key by key, and its
   * release name and namespace over the file's, as {@code --release-name} and {@code --namespace} do.
   */
  private static Config.Charts charts(Config.Charts file, Config.Charts editor) {
    if (editor == null) {
      return file;
    }
    Map<String, String> set = new LinkedHashMap<>(file.set());
    set.putAll(editor.set());
    return new Config.Charts(editor.values().isEmpty() ? file.values() : editor.values(), set,
        editor.releaseName() != null ? editor.releaseName() : file.releaseName(),
        editor.namespace() != null ? editor.namespace() : file.namespace());
  }
}
