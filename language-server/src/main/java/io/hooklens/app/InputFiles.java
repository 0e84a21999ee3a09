package io.hooklens.app;

import io.hooklens.chart.ChartLinter;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Expands the command line's paths into the files to lint, in a stable order. Symbolic links are followed,
 * each file and directory is taken once whatever the number of ways to it, and what is not a regular file
 * is skipped with a note (docs/files.md).
 */
public final class InputFiles {
  /** The file type bits of {@code unix:mode}, and the types a path may be that cannot be read as a file. */
  private static final int TYPE_BITS = 0170000;
  private static final int FIFO = 0010000;
  private static final int CHARACTER_DEVICE = 0020000;
  private static final int BLOCK_DEVICE = 0060000;
  private static final int SOCKET = 0140000;

  /** Links followed at most while looking for a loop, as Linux's own limit (MAXSYMLINKS). */
  private static final int MAX_LINKS = 40;

  private InputFiles() {}

  static boolean isManifestName(Path p) {
    String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
    return n.endsWith(".yaml") || n.endsWith(".yml") || n.endsWith(".json");
  }

  /**
   * Why a path named on the command line is neither a file to read nor a directory to walk, or empty. A FIFO
   * or a device would block or never end, so only regular files are read.
   */
  public static Optional<String> unreadable(Path p) {
    if (Files.isRegularFile(p) || Files.isDirectory(p)) {
      return Optional.empty();
    }
    if (Files.exists(p)) {
      return Optional.of("not a regular file (" + kind(p) + ")");
    }
    if (symlinkLoop(p)) {
      return Optional.of("symlink loop");
    }
    return Optional.of("no such file or directory");
  }

  /**
   * The manifest files under a directory, in a stable order, where a directory that holds a
   * {@code Chart.yaml} (the directory itself included) is listed as one chart and not searched.
   * Hidden directories are skipped, and so are {@code .hooklens.yaml} and {@code Chart.yaml}, which
   * are not manifests. Manifest names that are not regular files are skipped with a note (path: why).
   */
  public static List<Path> walk(Path dir, Consumer<String> notes) throws IOException {
    return new Walk(true, notes).run(dir);
  }

  /** A chart's files as manifests, its templates and subcharts' included, for linting one by one. */
  public static List<Path> walkChart(Path chart, Consumer<String> notes) throws IOException {
    return new Walk(false, notes).run(chart);
  }

  /** A file found, under the name it is shown by, and what identifies it however it is reached. */
  private record Found(Path name, Object identity) {}

  /** One expansion of a directory: what it took, by identity, and the links it has still to follow. */
  private static final class Walk {
    private final boolean charts;
    private final Consumer<String> notes;
    private final List<Path> out = new ArrayList<>();
    private final Set<Object> taken = new HashSet<>();
    private final Deque<Path> links = new ArrayDeque<>();

    Walk(boolean charts, Consumer<String> notes) {
      this.charts = charts;
      this.notes = notes;
    }

    List<Path> run(Path dir) throws IOException {
      // Walked by its real path, as a walk does not enter a start that is a link.
      tree(dir, dir.toRealPath());
      // After the tree's own entries, so that a file reached both ways is shown by its own name.
      while (!links.isEmpty()) {
        follow(links.poll());
      }
      out.sort(null);
      return out;
    }

    /** Walks {@code walked} without following links, showing what it finds under {@code shown}. */
    private void tree(Path shown, Path walked) throws IOException {
      List<Found> files = new ArrayList<>();
      List<Path> found = new ArrayList<>();
      Files.walkFileTree(walked, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) throws IOException {
          String name = d.getFileName() == null ? "" : d.getFileName().toString();
          if (!d.equals(walked) && name.startsWith(".")) {
            return FileVisitResult.SKIP_SUBTREE;
          }
          if (!taken.add(identity(d, attrs))) {
            // Reached before through a link: a loop, or a second way to the same files.
            return FileVisitResult.SKIP_SUBTREE;
          }
          if (charts && ChartLinter.isChart(d)) {
            // Rendering needs Helm's worker: it starts now, while the files before the chart are linted.
            ChartLinter.prepare();
            out.add(name(d));
            return FileVisitResult.SKIP_SUBTREE;
          }
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) throws IOException {
          if (attrs.isSymbolicLink()) {
            found.add(name(f));
          } else if (attrs.isRegularFile() && isManifest(f)) {
            files.add(new Found(name(f), identity(f, attrs)));
          } else if (!attrs.isDirectory() && isManifest(f)) {
            skipped(name(f), "not a regular file (" + kind(f) + ")");
          }
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult visitFileFailed(Path f, IOException e) {
          // Linting it says why it cannot be read.
          out.add(name(f));
          return FileVisitResult.CONTINUE;
        }

        private Path name(Path p) {
          return shown.resolve(walked.relativize(p));
        }
      });
      // Hard links are one file: in name order, so that the name shown does not depend on the listing's order.
      files.sort(Comparator.comparing(Found::name));
      for (Found f : files) {
        if (taken.add(f.identity())) {
          out.add(f.name());
        }
      }
      found.sort(null);
      links.addAll(found);
    }

    /** Takes what a link found in the walk leads to: a directory to walk under its name, or a file. */
    private void follow(Path link) throws IOException {
      BasicFileAttributes attrs;
      try {
        attrs = Files.readAttributes(link, BasicFileAttributes.class);
      } catch (IOException e) {
        if (isManifest(link)) {
          skipped(link, symlinkLoop(link) ? "symlink loop" : "symbolic link to nothing");
        }
        return;
      }
      if (attrs.isDirectory()) {
        if (!link.getFileName().toString().startsWith(".")) {
          tree(link, link.toRealPath());
        }
      } else if (isManifest(link)) {
        if (!attrs.isRegularFile()) {
          skipped(link, "not a regular file (" + kind(link) + ")");
        } else if (taken.add(identity(link, attrs))) {
          out.add(link);
        }
      }
    }

    private void skipped(Path p, String why) {
      notes.accept(p + ": " + why + ", skipped");
    }
  }

  /** Whether a walk takes a file of this name: a manifest name, but no configuration or chart file. */
  private static boolean isManifest(Path f) {
    String name = f.getFileName().toString();
    return isManifestName(f) && !name.equals(ConfigResolver.FILE_NAME) && !name.equals("Chart.yaml");
  }

  /** The file's identity (device and inode) where the system gives one, else its real path. */
  private static Object identity(Path p, BasicFileAttributes attrs) throws IOException {
    return attrs.fileKey() != null ? attrs.fileKey() : p.toRealPath();
  }

  /** What a path that is neither a regular file nor a directory is, for messages. */
  private static String kind(Path p) {
    try {
      return switch ((Integer) Files.getAttribute(p, "unix:mode") & TYPE_BITS) {
        case FIFO -> "a FIFO";
        case CHARACTER_DEVICE -> "a character device";
        case BLOCK_DEVICE -> "a block device";
        case SOCKET -> "a socket";
        default -> "a special file";
      };
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return "a special file";
    }
  }

  /**
   * Whether resolving the path runs into symbolic links that lead back to each other. Followed here one link
   * at a time, as the system's error for it (ELOOP) reaches Java only as words that vary.
   */
  static boolean symlinkLoop(Path p) {
    Path current = p.toAbsolutePath().normalize();
    Set<Path> seen = new HashSet<>();
    try {
      while (seen.size() <= MAX_LINKS) {
        Path link = firstLink(current);
        if (link == null) {
          return false;
        }
        // The same whole path again, not only the same link: l/l/x passes l twice and ends.
        if (!seen.add(current)) {
          return true;
        }
        Path target = link.resolveSibling(Files.readSymbolicLink(link));
        current = target.resolve(link.relativize(current)).normalize();
      }
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** The shortest leading part of an absolute path that is a symbolic link, or null. */
  private static Path firstLink(Path absolute) {
    Path prefix = absolute.getRoot();
    for (Path part : absolute) {
      prefix = prefix.resolve(part);
      if (Files.isSymbolicLink(prefix)) {
        return prefix;
      }
    }
    return null;
  }
}
