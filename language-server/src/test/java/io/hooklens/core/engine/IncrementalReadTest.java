package io.hooklens.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.TestPaths;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.yaml.DocumentChunks;
import io.hooklens.core.yaml.ParseProblem;
import io.hooklens.core.yaml.YamlDocument;
import io.hooklens.rules.BuiltInRules;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Reading an edited file with the documents of the previous read reused gives exactly what a fresh
 * read and lint of the same text give: the same findings, the same parse problems, the same documents.
 */
class IncrementalReadTest {
  private static final Linter LINTER = new Linter(BuiltInRules.registry());
  /** Edits that matter to a YAML stream: document markers, directives, breaks, quotes, anchors, indents. */
  private static final String[] INSERTS = {"x", "7", "\n", "\r\n", "\r", "---\n", "--- ", "...\n", "%YAML 1.2\n",
      "- ", ": ", "\"", "'", "[", "{", "}", "&a ", "*a", "  ", "\t", "# note\n", "|\n", "key: |\n  text\n",
      "helm.sh/hook: pre-instal\n", "kind: Job\n", "<<: *a\n", "a: 1\na: 2\n"};

  /**
   * The bad fixtures of the rules that read without syntax errors, one YAML stream: all kinds of hooks
   * and findings.
   */
  private static String manifest() throws IOException {
    StringBuilder sb = new StringBuilder();
    try (Stream<Path> files = Files.walk(TestPaths.repoRoot().resolve("language-server/src/test/resources/rules"))) {
      for (Path f : files.filter(p -> p.getFileName().toString().matches("bad-.*\\.yaml")).sorted().toList()) {
        String text = Files.readString(f);
        // Chart templates are always read whole.
        if (!text.contains("{{") && !broken(LINTER.parse("f.yaml", text)) && sb.length() < 20_000) {
          sb.append(text.endsWith("\n") ? text : text + "\n").append("---\n");
        }
      }
    }
    return sb.toString();
  }

  private static boolean broken(HookDocument doc) {
    return doc.parsed().problems().stream().anyMatch(p -> p.kind() == ParseProblem.Kind.SYNTAX
        || p.kind() == ParseProblem.Kind.LIMIT);
  }

  @Test
  void manyRandomEditsGiveTheFindingsOfAFreshLint() throws IOException {
    String base = manifest();
    assertTrue(base.lines().count() > 400, "a large stream: " + base.lines().count() + " lines");
    Random random = new Random(20261122);
    String text = base;
    String readable = base;
    DocumentChunks previous = DocumentChunks.NONE;
    HookDocument before = null;
    int reusing = 0;
    int edits = 250;
    for (int edit = 0; edit < edits; edit++) {
      if (!text.equals(readable)) {
        text = readable; // after a syntax error, back to the last readable text, as undo would
      } else {
        int at = random.nextInt(text.length() + 1);
        if (random.nextInt(4) == 0) {
          text = text.substring(0, at) + text.substring(Math.min(text.length(), at + 1 + random.nextInt(20)));
        } else {
          text = text.substring(0, at) + INSERTS[random.nextInt(INSERTS.length)] + text.substring(at);
        }
      }
      Linter.Reread reread = LINTER.parse("edited.yaml", text, previous);
      HookDocument fresh = LINTER.parse("edited.yaml", text);
      String where = "after edit " + edit;
      assertEquals(fresh.parsed().problems(), reread.document().parsed().problems(), where);
      assertEquals(shapes(fresh.parsed().documents()), shapes(reread.document().parsed().documents()), where);
      assertEquals(LINTER.lint(fresh, Config.DEFAULT).findings(), LINTER.lint(reread.document(), Config.DEFAULT)
          .findings(), where);
      if (before != null && sharesDocuments(before, reread.document())) {
        reusing++;
      }
      before = reread.document();
      previous = reread.chunks();
      if (!broken(fresh)) {
        readable = text;
      }
    }
    // The comparison means something only if documents were in fact reused (never right after an edit
    // that broke the text: that one was read whole).
    assertTrue(reusing > edits / 4, "documents reused after " + reusing + " of " + edits + " edits");
  }

  @Test
  void anEditInsideOneDocumentReadsOnlyThatDocument() {
    String text = "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Pod\n"
        + "metadata: {name: b}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: c}\n";
    Linter.Reread first = LINTER.parse("pods.yaml", text, DocumentChunks.NONE);
    Linter.Reread second = LINTER.parse("pods.yaml", text.replace("name: b", "name: bb"), first.chunks());
    List<YamlDocument> a = first.document().parsed().documents();
    List<YamlDocument> b = second.document().parsed().documents();
    assertSame(a.get(0).root(), b.get(0).root());
    assertNotSame(a.get(1).root(), b.get(1).root());
    assertSame(a.get(2).root(), b.get(2).root());
  }

  @Test
  void aDocumentMovedByAnEditAboveItIsReusedAgainAfterTheNextEdit() {
    String text = "kind: Pod\nmetadata: {name: a}\n---\nkind: Pod\nmetadata: {name: b}\n";
    Linter.Reread first = LINTER.parse("pods.yaml", text, DocumentChunks.NONE);
    // Longer first line, same lines: the second document moves within the text.
    Linter.Reread second = LINTER.parse("pods.yaml", text.replace("name: a", "name: aa"), first.chunks());
    Linter.Reread third = LINTER.parse("pods.yaml", text.replace("name: a", "name: aaa"), second.chunks());
    YamlDocument b = first.document().parsed().documents().get(1);
    assertSame(b.root(), second.document().parsed().documents().get(1).root());
    assertSame(b.root(), third.document().parsed().documents().get(1).root());
  }

  /** Index, range and node ranges of each document: what rules and findings see of the tree. */
  private static List<String> shapes(List<YamlDocument> docs) {
    return docs.stream().map(d -> d.index() + " " + d.range() + " "
        + (d.root() == null ? "null" : d.root().range() + " " + d.root().path() + " " + d.root().getClass()
            .getSimpleName())).toList();
  }

  private static boolean sharesDocuments(HookDocument before, HookDocument after) {
    Map<Object, Boolean> roots = new IdentityHashMap<>();
    before.parsed().documents().forEach(d -> roots.put(d.root(), true));
    return after.parsed().documents().stream().anyMatch(d -> d.root() != null && roots.containsKey(d.root()));
  }
}
