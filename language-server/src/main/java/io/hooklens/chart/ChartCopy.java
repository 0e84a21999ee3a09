package io.hooklens.chart;

import io.hooklens.core.yaml.SourceText;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YSeq;
import io.hooklens.core.yaml.YamlDocument;
import io.hooklens.core.yaml.YamlReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemLoopException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The temporary copy of a chart that Helm renders instead of the chart itself: every text file
 * rewritten by {@link HelmText} (hook annotations hidden, {@code lookup} answered without a cluster),
 * and the subchart archives in {@code charts/} unpacked so that their templates are rewritten too. It
 * remembers where each of its files came from, so that rendered documents and Helm's messages can be
 * mapped back to the chart as written. Closing it deletes the copy.
 */
final class ChartCopy implements AutoCloseable {
  /**
   * A file of the chart as the user knows it.
   *
   * @param displayName its name in reports: the chart's path as given joined with the file's path in it;
   *     inside a subchart archive, the archive's name joined with the path in the archive
   * @param file the file on disk, or null for a file inside an archive
   * @param archived the text of a file inside an archive, or null
   */
  record Origin(String displayName, Path file, String archived) {
    /** The text as written; undecodable bytes are replaced, since it is only shown and parsed. */
    String text() throws IOException {
      if (archived != null) {
        return archived;
      }
      return file == null ? "" : new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
    }
  }

  private static final String CHART_YAML = "Chart.yaml";

  private final Path temp;
  private final Path root;
  private final Path chartDir;
  private final Map<Path, Origin> origins = new HashMap<>();
  /** Paths of the copy that Helm may print, and what to print instead; values files first. */
  private final Map<String, String> messagePaths = new LinkedHashMap<>();
  private final Map<String, Path> subcharts = new HashMap<>();
  private int valuesFiles;

  private ChartCopy(Path temp, Path chartDir) {
    this.temp = temp;
    this.root = temp.resolve("chart");
    this.chartDir = chartDir;
  }

  /** Copies a chart; the copy is deleted again when copying fails. */
  static ChartCopy of(Path chartDir) throws IOException {
    ChartCopy copy = new ChartCopy(Files.createTempDirectory("hooklens-chart-"), chartDir);
    try {
      copy.copyTree();
    } catch (IOException | RuntimeException e) {
      copy.close();
      throw e;
    }
    return copy;
  }

  /** The copy's chart directory, the one Helm renders. */
  Path root() {
    return root;
  }

  /** The chart's {@code Chart.yaml}. */
  Origin chartYaml() {
    return origins.get(root.resolve(CHART_YAML));
  }

  /** How reports name a path relative to the chart. */
  String displayName(String relative) {
    return chartDir.resolve(relative).toString();
  }

  /** A file of the copy by its path relative to the chart, or null. */
  Origin file(String relative) {
    return origins.get(root.resolve(relative).normalize());
  }

  private void copyTree() throws IOException {
    Files.walkFileTree(chartDir, EnumSet.of(FileVisitOption.FOLLOW_LINKS), Integer.MAX_VALUE,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) throws IOException {
            // Version control data is no part of a chart and can be far larger than it.
            if (!d.equals(chartDir) && d.getFileName().toString().equals(".git")) {
              return FileVisitResult.SKIP_SUBTREE;
            }
            Files.createDirectories(root.resolve(chartDir.relativize(d).toString()));
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) throws IOException {
            if (!attrs.isRegularFile()) {
              return FileVisitResult.CONTINUE;
            }
            String rel = chartDir.relativize(f).toString();
            Path target = root.resolve(rel);
            String display = displayName(rel);
            byte[] bytes = Files.readAllBytes(f);
            if (!isArchivedSubchart(target) || !unpack(target, bytes, display)) {
              add(target, bytes, new Origin(display, f, null));
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path f, IOException e) throws IOException {
            // A symbolic link back up the tree; Helm's own loader does not follow it either.
            if (e instanceof FileSystemLoopException) {
              return FileVisitResult.CONTINUE;
            }
            throw e;
          }
        });
  }

  private static boolean isArchivedSubchart(Path p) {
    Path parent = p.getParent();
    return p.getFileName().toString().endsWith(".tgz") && parent != null
        && parent.getFileName().toString().equals("charts");
  }

  /**
   * Unpacks a subchart archive next to it, as the directory Helm would load in its place; false when
   * it cannot be read (Helm then reports the archive itself) or a directory of that name exists.
   */
  private boolean unpack(Path archive, byte[] bytes, String display) throws IOException {
    List<TarGz.Entry> entries;
    try {
      entries = TarGz.read(bytes);
    } catch (IOException e) {
      return false;
    }
    String name = archive.getFileName().toString();
    Path dir = archive.resolveSibling(name.substring(0, name.length() - ".tgz".length()));
    if (Files.exists(dir)) {
      return false;
    }
    for (TarGz.Entry e : entries) {
      int slash = e.path().indexOf('/');
      if (slash < 0) {
        continue;
      }
      Path target = dir.resolve(e.path().substring(slash + 1)).normalize();
      if (!target.startsWith(dir) || target.equals(dir)) {
        continue;
      }
      String inner = display + "/" + e.path();
      if (!isArchivedSubchart(target) || !unpack(target, e.data(), inner)) {
        add(target, e.data(), new Origin(inner, null, null));
      }
    }
    return true;
  }

  private void add(Path target, byte[] bytes, Origin origin) throws IOException {
    Files.createDirectories(target.getParent());
    String text = utf8(bytes);
    Origin o = origin;
    if (text == null) {
      Files.write(target, bytes);
    } else {
      String rewritten = HelmText.hideHooks(text);
      if (isTemplate(target)) {
        rewritten = HelmText.emptyLookups(rewritten);
      }
      Files.writeString(target, rewritten, StandardCharsets.UTF_8);
      if (o.file() == null) {
        o = new Origin(o.displayName(), null, text);
      }
    }
    origins.put(target.normalize(), o);
  }

  private boolean isTemplate(Path target) {
    for (Path part : root.relativize(target)) {
      if (part.toString().equals("templates")) {
        return true;
      }
    }
    return false;
  }

  private static String utf8(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  /** Copies a values file beside the chart, rewritten like the chart, for Helm to read. */
  Path values(ValuesSet set) throws IOException {
    byte[] bytes = Files.readAllBytes(set.file());
    // A name of our own: helm-java passes values files to Helm as one comma-separated list.
    Path target = temp.resolve("values-" + ++valuesFiles + ".yaml");
    String text = utf8(bytes);
    if (text == null) {
      Files.write(target, bytes);
    } else {
      Files.writeString(target, HelmText.hideHooks(text), StandardCharsets.UTF_8);
    }
    messagePaths.put(target.toString(), set.label());
    origins.put(target.normalize(), new Origin(set.label(), set.file(), null));
    return target;
  }

  /** The origin of a values file that {@link #values} copied, by the path Helm was given. */
  Origin valuesOrigin(Path copied) {
    return origins.get(copied.normalize());
  }

  /** A message of Helm's with the copy's paths replaced by the names the user knows. */
  String forReport(String message) {
    String m = message;
    for (Map.Entry<String, String> e : messagePaths.entrySet()) {
      m = m.replace(e.getKey(), e.getValue());
    }
    return m.replace(root.toString(), chartDir.toString());
  }

  /**
   * The file a {@code # Source:} path names ({@code demo/charts/db/templates/job.yaml}): Helm writes
   * the chart's name, then {@code charts/NAME} for each subchart by its name or alias, then the path.
   */
  Origin source(String sourcePath) {
    String[] parts = sourcePath.split("/");
    Path dir = root;
    int i = 1;
    while (i + 2 < parts.length && parts[i].equals("charts")) {
      dir = subchart(dir, parts[i + 1]);
      if (dir == null) {
        return null;
      }
      i += 2;
    }
    if (i >= parts.length) {
      return null;
    }
    return origins.get(dir.resolve(String.join("/", List.of(parts).subList(i, parts.length))).normalize());
  }

  /** The directory of the subchart Helm calls {@code name}: by directory, chart name or alias. */
  private Path subchart(Path dir, String name) {
    String key = dir + "\n" + name;
    if (subcharts.containsKey(key)) {
      return subcharts.get(key);
    }
    Path charts = dir.resolve("charts");
    Map<String, Path> byChartName = new HashMap<>();
    if (Files.isDirectory(charts)) {
      try (var list = Files.list(charts)) {
        for (Path d : list.sorted().toList()) {
          chartName(d).ifPresent(n -> byChartName.putIfAbsent(n, d));
        }
      } catch (IOException e) {
        // An unreadable folder holds no subchart we could map to.
      }
    }
    Path found = byChartName.get(name);
    if (found == null) {
      String aliased = aliases(dir).get(name);
      found = aliased == null ? null : byChartName.get(aliased);
    }
    if (found == null && Files.isRegularFile(charts.resolve(name).resolve(CHART_YAML))) {
      found = charts.resolve(name);
    }
    subcharts.put(key, found);
    return found;
  }

  private static Optional<String> chartName(Path dir) {
    return chartMetadata(dir.resolve(CHART_YAML)).map(m -> m.string("name"));
  }

  /** Aliases of a chart's dependencies (Chart.yaml, or requirements.yaml of apiVersion v1 charts). */
  private static Map<String, String> aliases(Path dir) {
    Map<String, String> out = new HashMap<>();
    for (String file : List.of(CHART_YAML, "requirements.yaml")) {
      Optional<YMap> m = chartMetadata(dir.resolve(file));
      YSeq deps = m.map(x -> x.seq("dependencies")).orElse(null);
      if (deps == null) {
        continue;
      }
      for (YNode d : deps.items()) {
        YMap dep = d.asMap();
        if (dep != null && dep.string("alias") != null && dep.string("name") != null) {
          out.put(dep.string("alias"), dep.string("name"));
        }
      }
    }
    return out;
  }

  /** The first mapping of a chart's metadata file (Chart.yaml, requirements.yaml), if it has one. */
  static Optional<YMap> chartMetadata(Path file) {
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try {
      String text = Files.readString(file, StandardCharsets.UTF_8);
      List<YamlDocument> docs = new YamlReader().read(new SourceText(text), false).documents();
      return docs.stream().map(YamlDocument::root).filter(r -> r != null && r.asMap() != null)
          .map(YNode::asMap).findFirst();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** Deletes the copy; a file that cannot be deleted is left in the temporary directory. */
  @Override
  public void close() {
    List<Path> all = new ArrayList<>();
    try (var walk = Files.walk(temp)) {
      walk.forEach(all::add);
    } catch (IOException e) {
      return;
    }
    for (int i = all.size() - 1; i >= 0; i--) {
      try {
        Files.deleteIfExists(all.get(i));
      } catch (IOException e) {
        // Left behind in the temporary directory; the lint result does not depend on it.
      }
    }
  }
}
