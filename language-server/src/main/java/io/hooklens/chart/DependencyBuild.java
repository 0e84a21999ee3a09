package io.hooklens.chart;

import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YSeq;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * {@code helm dependency build} for a chart copy, never in the chart itself: Helm builds in a folder of the copy's
 * that holds only the chart's metadata files (Chart.yaml, requirements.yaml and their lock files), and the archives
 * it writes to that folder's {@code charts/} join the copy's files. A {@code file://} repository relative to the
 * chart ({@code file://../common}) is resolved by Helm from the folder it builds in, so the folder lies as deep as
 * the deepest such path climbs, and each such path there is a link to the folder it names beside the chart.
 */
final class DependencyBuild {
  private static final List<String> METADATA = List.of("Chart.yaml", "Chart.lock", "requirements.yaml",
      "requirements.lock");
  private static final String FILE = "file://";

  private DependencyBuild() {}

  /**
   * Builds the dependencies of a chart in {@code work} and adds the archives Helm fetched to the chart's files, by
   * their path in it, where the chart has none of that name nor a folder or archive of that dependency already.
   *
   * @param files the chart's files by their path in it
   * @throws ChartLinter.DependenciesFailed when Helm refuses
   */
  static void build(Path chartDir, Path work, TreeMap<String, byte[]> files) throws IOException {
    List<String> local = localRepositories(files);
    int depth = 1;
    for (String r : local) {
      depth = Math.max(depth, climbs(r));
    }
    Path folder = work;
    for (int i = 0; i < depth; i++) {
      folder = folder.resolve("d");
    }
    folder = folder.resolve("chart");
    Files.createDirectories(folder);
    for (String name : METADATA) {
      if (files.containsKey(name)) {
        Files.write(folder.resolve(name), files.get(name));
      }
    }
    Path absolute = chartDir.toAbsolutePath().normalize();
    for (String r : local) {
      link(work, folder, absolute, r);
    }
    Optional<String> failed = ChartRenderer.buildDependencies(folder);
    if (failed.isPresent()) {
      // Helm names the folders it built in; the user knows them beside the chart.
      String message = failed.get().replace(folder.toString(), chartDir.toString());
      Path at = folder.getParent();
      for (Path beside = absolute.getParent(); at != null && at.startsWith(work) && !at.equals(work) && beside != null;
          at = at.getParent(), beside = beside.getParent()) {
        message = message.replace(at.toString(), beside.toString());
      }
      throw new ChartLinter.DependenciesFailed(message);
    }
    Path built = folder.resolve("charts");
    if (!Files.isDirectory(built)) {
      return;
    }
    try (Stream<Path> archives = Files.list(built)) {
      for (Path a : archives.filter(p -> p.getFileName().toString().endsWith(".tgz")).sorted().toList()) {
        String name = a.getFileName().toString();
        String dependency = name.replaceFirst("-\\d[^/]*\\.tgz$", "");
        boolean vendored = files.keySet().stream().anyMatch(k -> k.startsWith("charts/" + dependency + "/")
            || k.startsWith("charts/" + dependency + "-") && !k.substring(("charts/" + dependency + "-").length())
                .contains("/"));
        if (!vendored) {
          files.put("charts/" + name, Files.readAllBytes(a));
        }
      }
    }
  }

  /** Makes a relative {@code file://} path from the build folder lead where it leads from the chart. */
  private static void link(Path work, Path folder, Path chart, String relative) throws IOException {
    Path link;
    Path target;
    try {
      link = folder.resolve(relative).normalize();
      target = chart.resolve(relative).normalize();
    } catch (InvalidPathException e) {
      return; // Helm says the path is wrong.
    }
    // A link already made may hold this path; Helm then finds it through that one.
    if (link.startsWith(work) && !link.startsWith(folder) && !Files.exists(link) && Files.exists(target)) {
      Files.createDirectories(link.getParent());
      Files.createSymbolicLink(link, target);
    }
  }

  /** The relative paths of the chart's {@code file://} repositories, as written after {@code file://}. */
  private static List<String> localRepositories(TreeMap<String, byte[]> files) {
    List<String> out = new ArrayList<>();
    for (String name : List.of("Chart.yaml", "requirements.yaml")) {
      byte[] bytes = files.get(name);
      YSeq deps = bytes == null ? null : ChartCopy.chartMetadata(bytes).map(m -> m.seq("dependencies")).orElse(null);
      for (YNode d : deps == null ? List.<YNode>of() : deps.items()) {
        YMap dep = d.asMap();
        String repository = dep == null ? null : dep.string("repository");
        if (repository != null && repository.startsWith(FILE) && !repository.startsWith(FILE + "/")
            && !repository.substring(FILE.length()).isBlank()) {
          out.add(repository.substring(FILE.length()));
        }
      }
    }
    return out;
  }

  /** How many folders a relative path climbs above its start at most. */
  private static int climbs(String relative) {
    int level = 0;
    int most = 0;
    for (String part : relative.split("/")) {
      if (part.equals("..")) {
        most = Math.max(most, ++level);
      } else if (!part.isEmpty() && !part.equals(".")) {
        level--;
      }
    }
    return most;
  }
}
