package io.hooklens.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hooklens.TestPaths;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps ARCHITECTURE.md honest: every class, nested type, member and package that its code spans name exists
 * in the Java sources. A span names code when a word in it is capitalised ({@code Linter}), qualified by a
 * package suffix ({@code node.NodeAgent}, {@code cli/LintCommand}) or a whole package ({@code io.hooklens.run}),
 * or followed by a member ({@code Linter.decode}). File names, constants in capitals, options ({@code -Dtest})
 * and the few names of Kubernetes, Helm and libraries listed in {@link #NOT_OURS} are not code.
 */
class ArchitectureDocTest {
  /** Capitalised words the document writes in code spans that name Kubernetes, Helm or Java things, not ours. */
  private static final Set<String> NOT_OURS = Set.of(
      "Pod", "Job", "ConfigMap", "Secret", "DeploymentConfig", "Deployment", "Template", "List", "Chart",
      "Event", "Events", "KubernetesClient", "System", "Error", "Content", "Length", "VmRSS", "Always", "Never",
      "Abort", "Retry", "Ignore", "Values", "Capabilities", "Files", "Release", "Tag", "FuzzTest", "NonNull");

  private static final Pattern FENCE = Pattern.compile("(?ms)^```.*?^```");
  private static final Pattern SPAN = Pattern.compile("`([^`]+)`");
  private static final Pattern TOKEN = Pattern.compile("(?<![\\w-])[A-Za-z_][A-Za-z0-9_]*(?:[./](?:[A-Za-z_][A-Za-z0-9_]*|\\*))*");
  private static final Pattern FILE_NAME = Pattern.compile(
      ".*\\.(md|ya?ml|json|java|ts|mjs|js|tgz|png|svg|lua|sh|xml|toml|tpl|jsa|jar|vsix)$");
  private static final Pattern CONSTANT = Pattern.compile("[A-Z][A-Z0-9_]*");
  private static final Set<String> FOREIGN_ROOTS = Set.of("java", "javax", "jdk", "org", "com", "net");

  @Test
  void everyNameInArchitectureExists() throws IOException {
    Path root = TestPaths.repoRoot();
    String doc = Files.readString(root.resolve("ARCHITECTURE.md"));
    assertEquals(List.of(), unknownNames(doc, Sources.of(root)),
        "ARCHITECTURE.md names code that is not in the sources; correct the names or the text");
  }

  @Test
  void aNameThatDoesNotExistIsReported() {
    String text = "`Linter` reads; `NoSuchClass` does not exist, nor `io.hooklens.nowhere`, `Linter.noSuchMember`,"
        + " `node.Linter` or `io.hooklens.core.engine.Nothing`; `Chart.yaml`, `HL401` and `Pod` are no code."
        + "\n```\nInFenceOnly\n```\n`io.hooklens.run.node` and `node.NodeAgent` and `arch/LayeringTest` exist.";
    assertEquals(List.of("NoSuchClass", "io.hooklens.nowhere", "Linter.noSuchMember", "node.Linter",
        "io.hooklens.core.engine.Nothing"), unknownNames(text, Sources.of(TestPaths.repoRoot())));
  }

  /** The names in the code spans of {@code markdown} that are not in {@code sources}, in order, each once. */
  static List<String> unknownNames(String markdown, Sources sources) {
    Set<String> unknown = new LinkedHashSet<>();
    Matcher span = SPAN.matcher(FENCE.matcher(markdown).replaceAll(""));
    while (span.find()) {
      Matcher token = TOKEN.matcher(span.group(1));
      while (token.find()) {
        String name = token.group();
        if (!sources.knows(name)) {
          unknown.add(name);
        }
      }
    }
    return new ArrayList<>(unknown);
  }

  /** The Java sources of the repository: each file by its type's simple name, and every type declared in it. */
  record Sources(Path root, Map<String, List<Path>> typeFiles, Set<String> packageDirs) {
    private static final Pattern DECLARATION =
        Pattern.compile("\\b(?:class|interface|enum|record|@interface)\\s+([A-Z][A-Za-z0-9_]*)");
    private static final List<String> SOURCE_ROOTS = List.of(
        "language-server/src/main/java", "language-server/src/test/java", "benchmarks/src/main/java",
        "intellij-plugin/src/main/java", "intellij-plugin/src/test/java", "intellij-plugin/lsp4ij-stubs/src/main/java");

    static Sources of(Path root) {
      Map<String, List<Path>> typeFiles = new HashMap<>();
      Set<String> packageDirs = new LinkedHashSet<>();
      for (String sourceRoot : SOURCE_ROOTS) {
        Path base = root.resolve(sourceRoot);
        if (!Files.isDirectory(base)) {
          continue;
        }
        try (Stream<Path> files = Files.walk(base)) {
          for (Path p : files.toList()) {
            String relative = base.relativize(p).toString().replace('\\', '/');
            if (Files.isDirectory(p)) {
              packageDirs.add(relative);
            } else if (relative.endsWith(".java")) {
              Matcher m = DECLARATION.matcher(Files.readString(p));
              while (m.find()) {
                typeFiles.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(p);
              }
            }
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
      return new Sources(root, typeFiles, packageDirs);
    }

    /** Whether a token of a code span is no code, or code that exists. */
    boolean knows(String token) {
      String name = token.endsWith(".*") ? token.substring(0, token.length() - 2) : token;
      if (FILE_NAME.matcher(name).matches()) {
        return true;
      }
      String[] segments = name.split("[./]");
      if (segments[0].equals("io") && segments.length > 1 && segments[1].equals("hooklens")) {
        return knowsQualified(segments);
      }
      int first = 0;
      while (first < segments.length && !Character.isUpperCase(segments[first].charAt(0))) {
        first++;
      }
      if (first == segments.length || FOREIGN_ROOTS.contains(segments[0])) {
        return true;
      }
      String type = segments[first];
      if (CONSTANT.matcher(type).matches() || first == 0 && NOT_OURS.contains(type)) {
        return true;
      }
      String packageSuffix = String.join("/", List.of(segments).subList(0, first));
      return knowsType(packageSuffix, type, List.of(segments).subList(first + 1, segments.length));
    }

    private boolean knowsQualified(String[] segments) {
      int first = 0;
      while (first < segments.length && !Character.isUpperCase(segments[first].charAt(0))) {
        first++;
      }
      String pkg = String.join("/", List.of(segments).subList(0, first));
      if (!packageDirs.contains(pkg)) {
        return false;
      }
      return first == segments.length
          || knowsType(pkg, segments[first], List.of(segments).subList(first + 1, segments.length));
    }

    /** A type declared in a package whose path ends with {@code packageSuffix}, with the members that follow. */
    private boolean knowsType(String packageSuffix, String type, List<String> members) {
      for (Path file : typeFiles.getOrDefault(type, List.of())) {
        String dir = file.getParent().toString().replace('\\', '/');
        if ((packageSuffix.isEmpty() || dir.endsWith("/" + packageSuffix)) && hasMembers(file, members)) {
          return true;
        }
      }
      return false;
    }

    /** Nested types and then at most one member (a method, field or record component) declared in the file. */
    private boolean hasMembers(Path file, List<String> members) {
      try {
        String text = Files.readString(file);
        for (String member : members) {
          Pattern declared = Character.isUpperCase(member.charAt(0)) && !CONSTANT.matcher(member).matches()
              ? Pattern.compile("\\b(?:class|interface|enum|record)\\s+" + member + "\\b")
              : Pattern.compile("\\b" + Pattern.quote(member) + "\\b");
          if (!declared.matcher(text).find()) {
            return false;
          }
          if (!Character.isUpperCase(member.charAt(0))) {
            return true;
          }
        }
        return true;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
