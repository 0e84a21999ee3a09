package io.hooklens.cli;

import io.hooklens.chart.ChartLinter;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Expands the command line's paths into the files to lint, in a stable order. */
final class InputFiles {
  private InputFiles() {}

  static boolean isManifestName(Path p) {
    String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
    return n.endsWith(".yaml") || n.endsWith(".yml") || n.endsWith(".json");
  }

  /**
   * The manifest files under a directory, in a stable order, where a directory that holds a
   * {@code Chart.yaml} (the directory itself included) is listed as one chart and not searched.
   * Hidden directories are skipped, and so are {@code .hooklens.yaml} and {@code Chart.yaml}, which
   * are not manifests.
   */
  static List<Path> walk(Path dir) throws IOException {
    return walk(dir, true);
  }

  /** A chart's files as manifests, its templates and subcharts' included, for linting one by one. */
  static List<Path> walkChart(Path chart) throws IOException {
    return walk(chart, false);
  }

  private static List<Path> walk(Path dir, boolean charts) throws IOException {
    List<Path> out = new ArrayList<>();
    Files.walkFileTree(dir, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
        String name = d.getFileName() == null ? "" : d.getFileName().toString();
        if (!d.equals(dir) && name.startsWith(".")) {
          return FileVisitResult.SKIP_SUBTREE;
        }
        if (charts && ChartLinter.isChart(d)) {
          // Rendering needs Helm's worker: it starts now, while the files before the chart are linted.
          ChartLinter.prepare();
          out.add(d);
          return FileVisitResult.SKIP_SUBTREE;
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) {
        String name = f.getFileName().toString();
        if (attrs.isRegularFile() && isManifestName(f) && !name.equals(ConfigResolver.FILE_NAME)
            && !name.equals("Chart.yaml")) {
          out.add(f);
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path f, IOException e) {
        out.add(f);
        return FileVisitResult.CONTINUE;
      }
    });
    out.sort(null);
    return out;
  }
}
