package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hooklens.TestPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The two documents a newcomer reads first stay short: README.md at most 300 lines, ARCHITECTURE.md at most
 * 25 KB, and no paragraph or list item of either over 120 words (tables and code blocks aside).
 */
class DocShapeTest {
  private static final int README_LINES = 300;
  private static final int ARCHITECTURE_BYTES = 25 * 1024;
  private static final int PARAGRAPH_WORDS = 120;
  private static final Pattern FENCE = Pattern.compile("(?ms)^```.*?^```");
  private static final Pattern BREAK = Pattern.compile("\\n\\s*\\n|\\n(?=\\s*[-*] )");

  @Test
  void readmeIsShort() throws IOException {
    List<String> lines = Files.readAllLines(TestPaths.repoRoot().resolve("README.md"));
    assertTrue(lines.size() <= README_LINES, "README.md has " + lines.size() + " lines; reference goes to docs/");
  }

  @Test
  void architectureIsShort() throws IOException {
    long bytes = Files.size(TestPaths.repoRoot().resolve("ARCHITECTURE.md"));
    assertTrue(bytes <= ARCHITECTURE_BYTES, "ARCHITECTURE.md has " + bytes + " bytes; behaviour goes to docs/");
  }

  @Test
  void noParagraphIsAWall() throws IOException {
    List<String> walls = new ArrayList<>();
    for (String doc : List.of("README.md", "ARCHITECTURE.md")) {
      walls.addAll(longParagraphs(doc, Files.readString(TestPaths.repoRoot().resolve(doc))));
    }
    assertEquals(List.of(), walls, "paragraphs over " + PARAGRAPH_WORDS + " words");
  }

  @Test
  void aLongParagraphIsFound() {
    String wall = "word ".repeat(PARAGRAPH_WORDS + 1).strip();
    String text = "# Title\n\nA short one.\n\n- an item\n- " + wall + "\n\n```\n" + wall + "\n```\n\n| "
        + wall + " |\n";
    assertEquals(List.of("x.md: \"word word word word word…\" (121 words)"), longParagraphs("x.md", text));
  }

  /** The paragraphs and list items of a Markdown text, code blocks left out, that have too many words. */
  static List<String> longParagraphs(String name, String markdown) {
    List<String> walls = new ArrayList<>();
    for (String paragraph : BREAK.split(FENCE.matcher(markdown).replaceAll(""))) {
      String[] words = paragraph.strip().replaceFirst("^[-*] ", "").split("\\s+");
      if (words.length > PARAGRAPH_WORDS && !paragraph.strip().startsWith("|")) {
        walls.add(name + ": \"" + String.join(" ", List.of(words).subList(0, 5)) + "…\" (" + words.length + " words)");
      }
    }
    return walls;
  }
}
