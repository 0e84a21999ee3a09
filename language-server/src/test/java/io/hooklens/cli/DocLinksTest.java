package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hooklens.TestPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every relative link of the docs leads somewhere: to a file or folder that exists and, when the link names a
 * heading ({@code run.md#security-model}), to a heading of that page, as GitHub makes anchors of headings.
 */
class DocLinksTest {
  private static final Pattern FENCE = Pattern.compile("(?ms)^(```|~~~).*?^\\1");
  private static final Pattern CODE_SPAN = Pattern.compile("`[^`]*`");
  private static final Pattern INLINE = Pattern.compile("!?\\[(?:[^\\]\\[]|\\[[^\\]]*\\])*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
  private static final Pattern REFERENCE = Pattern.compile("(?m)^ {0,3}\\[[^\\]]+\\]:\\s+<?(\\S+?)>?(?:\\s.*)?$");
  private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");
  private static final Pattern HEADING = Pattern.compile("(?m)^ {0,3}#{1,6}\\s+(.*?)\\s*#*\\s*$");
  private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"");

  @Test
  void everyRelativeLinkOfTheDocsResolves() throws IOException {
    Path root = TestPaths.repoRoot();
    List<Path> docs = new ArrayList<>(List.of(root.resolve("README.md"), root.resolve("ARCHITECTURE.md"),
        root.resolve("vscode-extension/README.md"), root.resolve("schemas/README.md")));
    try (Stream<Path> files = Files.walk(root.resolve("docs"))) {
      files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    List<String> broken = new ArrayList<>();
    for (Path doc : docs) {
      broken.addAll(brokenLinks(root, doc));
    }
    assertEquals(List.of(), broken, "links that lead nowhere");
  }

  @Test
  void aLinkToAMissingFileOrHeadingIsBroken(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("a.md"), """
        # Page A
        ## Running hooks: `hooklens run`
        See [b](b.md#second-part), [here](#running-hooks-hooklens-run), [the web](https://example.com/x.md).
        [gone](missing.md) and [no heading](b.md#third) and [no anchor](#nowhere) and ![img](pic.png).
        `[not a link](nowhere.md)`
        ```
        [nor this](nowhere.md)
        ```
        [ref]: missing-too.md
        """);
    Files.writeString(dir.resolve("b.md"), "# B\n\n## Second part\n");
    assertEquals(List.of("a.md: missing.md", "a.md: b.md#third", "a.md: #nowhere", "a.md: pic.png",
        "a.md: missing-too.md"), brokenLinks(dir, dir.resolve("a.md")));
  }

  /** The relative links of one Markdown file that lead to no file, or to no heading of the file. */
  static List<String> brokenLinks(Path root, Path doc) throws IOException {
    String text = CODE_SPAN.matcher(FENCE.matcher(Files.readString(doc)).replaceAll("")).replaceAll("");
    List<String> targets = new ArrayList<>();
    for (Pattern p : List.of(INLINE, REFERENCE)) {
      Matcher m = p.matcher(text);
      while (m.find()) {
        targets.add(m.group(1));
      }
    }
    List<String> broken = new ArrayList<>();
    Map<Path, Set<String>> anchors = new HashMap<>();
    for (String target : targets) {
      if (SCHEME.matcher(target).find()) {
        continue;
      }
      int hash = target.indexOf('#');
      String file = hash < 0 ? target : target.substring(0, hash);
      Path to = file.isEmpty() ? doc : doc.getParent().resolve(file).normalize();
      boolean ok = Files.exists(to);
      if (ok && hash >= 0) {
        String anchor = target.substring(hash + 1);
        ok = Files.isRegularFile(to) && anchors.computeIfAbsent(to, DocLinksTest::anchors).contains(anchor);
      }
      if (!ok) {
        broken.add(root.relativize(doc) + ": " + target);
      }
    }
    return broken;
  }

  /** The anchors GitHub gives a page: one per heading (a repeated one gets -1, -2...), and HTML anchors. */
  static Set<String> anchors(Path page) {
    try {
      String text = FENCE.matcher(Files.readString(page)).replaceAll("");
      Set<String> anchors = new LinkedHashSet<>();
      Map<String, Integer> seen = new HashMap<>();
      Matcher h = HEADING.matcher(text);
      while (h.find()) {
        String slug = slug(h.group(1));
        int n = seen.merge(slug, 1, Integer::sum) - 1;
        anchors.add(n == 0 ? slug : slug + "-" + n);
      }
      Matcher a = HTML_ANCHOR.matcher(text);
      while (a.find()) {
        anchors.add(a.group(1));
      }
      return anchors;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** GitHub's anchor of a heading: the text of its links, lower case, without punctuation, spaces as hyphens. */
  static String slug(String heading) {
    String plain = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1");
    return plain.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{M}\\p{N}\\p{Pc} -]", "").replace(' ', '-');
  }
}
