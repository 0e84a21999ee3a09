package io.hooklens.core.yaml;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Deque;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Hides Go template actions ({@code {{ ... }}}) of Helm chart templates from the YAML reader while
 * keeping every line and column where it was. An action inside a line becomes a run of
 * {@link #PLACEHOLDER} characters, one per code point, so {@code image: {{ .Values.image }}} reads
 * as a plain scalar whose value is unknown. A line that holds nothing but actions ({@code {{- if }}},
 * {@code {{- end }}}, {@code {{- include ... | nindent 4 }}}) is emptied, so control flow does not
 * break the YAML structure around it. Lines keep their numbers, and every line that still has
 * content keeps its columns.
 */
public final class TemplateMask {
  /** A letter that never occurs in real manifests; scalars that contain it are template output. */
  public static final char PLACEHOLDER = '\u0287';

  /** The start of a control action, up to its keyword; {@link #keywords} finds where it closes. */
  private static final Pattern KEYWORD = Pattern.compile("\\{\\{-?\\s*(if|with|range|block|define|else|end)\\b");

  private static final Pattern BLOCK_HEADER = Pattern.compile("[:-]\\s+[|>][-+0-9]*\\s*(#.*)?$");

  private TemplateMask() {}

  public static boolean needsMask(String text) {
    return text.contains("{{");
  }

  /** Words that start template actions which produce no output of their own. */
  private static final Pattern CONTROL = Pattern.compile(
      "\\{\\{-?\\s*(if|else|end|range|with|define|block|break|continue|/\\*|\\$[\\w.]*\\s*:?=)");

  /**
   * The masked text, and the lines where an emptied action may produce content (an {@code include},
   * a {@code toYaml}), so that a key missing from a mapping around such a line is unknown, not absent.
   */
  public record Result(String text, BitSet hiddenOutputLines) {}

  /** The masked text: same lines, same columns for every character that is still there. */
  public static String mask(String text) {
    return maskAndTrack(text).text();
  }

  /** Masks and records where output-producing actions were hidden. */
  public static Result maskAndTrack(String text) {
    BitSet hidden = new BitSet();
    String[] original = lines(text).stream().map(TemplateMask::content).toArray(String[]::new);
    StringBuilder out = new StringBuilder(text.length());
    int i = 0;
    while (i < text.length()) {
      int open = text.indexOf("{{", i);
      if (open < 0) {
        out.append(text, i, text.length());
        break;
      }
      out.append(text, i, open);
      int close = text.indexOf("}}", open + 2);
      int end = close < 0 ? text.length() : close + 2;
      for (int j = open; j < end; ) {
        int cp = text.codePointAt(j);
        out.append(cp == '\n' || cp == '\r' ? (char) cp : PLACEHOLDER);
        j += Character.charCount(cp);
      }
      i = end;
    }
    return new Result(unmaskStructure(out.toString(), original, hidden), hidden);
  }

  /**
   * Empties lines that hold only actions (so they cannot upset a block scalar's indentation), and
   * drops a trailing action after {@code key:} when more-indented lines follow, since such an action
   * emits the block those lines continue ({@code labels: {{- include ... | nindent 4 }}}).
   */
  private static String unmaskStructure(String masked, String[] original, BitSet hidden) {
    List<String> withBreaks = lines(masked);
    String[] lines = withBreaks.stream().map(TemplateMask::content).toArray(String[]::new);
    BitSet skipped = alternativeBranches(original);
    StringBuilder out = new StringBuilder(masked.length());
    String previous = "";
    for (int n = 0; n < lines.length; n++) {
      String body = lines[n];
      if (skipped.get(n)) {
        body = "";
      } else if (body.indexOf(PLACEHOLDER) >= 0) {
        String stripped = body.replace(String.valueOf(PLACEHOLDER), "").strip();
        if (stripped.isEmpty() && blockHeader(previous)) {
          // The action is the block scalar's content; an empty block scalar trips the YAML reader.
          int at = Math.max(body.indexOf(PLACEHOLDER), indent(previous) + 2);
          body = " ".repeat(at) + PLACEHOLDER;
        } else if (stripped.isEmpty()) {
          if (producesOutput(original[n])) {
            hidden.set(n);
          }
          body = "";
        } else if (emitsBlock(body) && indent(next(lines, n)) > indent(body)) {
          body = body.substring(0, body.length() - trailingActionLength(body));
        }
      }
      String lineBreak = withBreaks.get(n).substring(lines[n].length());
      if (body.isEmpty() && lineBreak.equals("\n") && out.length() > 0 && out.charAt(out.length() - 1) == '\r') {
        // A lone CR and this line's LF would read as one CRLF: a blank keeps the two line breaks apart.
        body = " ";
      }
      out.append(body).append(lineBreak);
      if (!body.isBlank()) {
        previous = body;
      }
    }
    return out.toString();
  }

  /** Whether a line ends in a block scalar's header; one without {@code |} or {@code >} is not tried on the pattern. */
  private static boolean blockHeader(String line) {
    return (line.indexOf('|') >= 0 || line.indexOf('>') >= 0) && BLOCK_HEADER.matcher(line).find();
  }

  /**
   * A text's lines as the YAML reader counts them, each with its line break: a {@code \n}, a {@code \r\n} or a lone
   * {@code \r}, which masking keeps, so that every line keeps its number.
   */
  private static List<String> lines(String text) {
    List<String> lines = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\n' || c == '\r' && (i + 1 == text.length() || text.charAt(i + 1) != '\n')) {
        lines.add(text.substring(start, i + 1));
        start = i + 1;
      }
    }
    lines.add(text.substring(start));
    return lines;
  }

  /** A line without its line break. */
  private static String content(String line) {
    int end = line.length();
    while (end > 0 && (line.charAt(end - 1) == '\n' || line.charAt(end - 1) == '\r')) {
      end--;
    }
    return line.substring(0, end);
  }

  /**
   * Lines to leave out so that the text reads as one possible rendering: the {@code else} branches
   * of {@code if}, {@code with} and {@code range} (otherwise both branches of an if/else would be
   * read at once, as if a handler had two actions), and the bodies of {@code define}, which are not
   * output where they stand.
   */
  private static BitSet alternativeBranches(String[] lines) {
    BitSet skipped = new BitSet();
    Deque<boolean[]> frames = new ArrayDeque<>();
    // Open frames that skip their lines, counted as they open and close: searching the stack on every line made
    // a template of many nested actions take quadratic time.
    int skipping = 0;
    for (int n = 0; n < lines.length; n++) {
      boolean skipThisLine = skipping > 0;
      for (String keyword : keywords(lines[n])) {
        switch (keyword) {
          case "if", "with", "range", "block" -> frames.push(new boolean[] {false});
          case "define" -> {
            frames.push(new boolean[] {true});
            skipping++;
          }
          case "else" -> {
            if (!frames.isEmpty() && !frames.peek()[0]) {
              frames.peek()[0] = true;
              skipping++;
            }
          }
          default -> {
            if (!frames.isEmpty() && frames.pop()[0]) {
              skipping--;
            }
          }
        }
      }
      if (skipThisLine || skipping > 0) {
        skipped.set(n);
      }
    }
    return skipped;
  }

  /**
   * The keywords of a line's control actions in order. An action counts when the first closing brace after its
   * keyword is the first of the two that end it. That brace is looked for once for all the actions before it, so a
   * line of many unclosed actions is read in linear time, where a regular expression would scan to the line's end
   * from each of them.
   */
  private static List<String> keywords(String line) {
    // Most lines hold no action; the pattern would find none in them either.
    if (line.indexOf("{{") < 0) {
      return List.of();
    }
    List<String> found = new ArrayList<>();
    Matcher m = KEYWORD.matcher(line);
    int brace = -1;
    int from = 0;
    while (from < line.length() && find(m, line, from)) {
      if (brace < m.end()) {
        brace = line.indexOf('}', m.end());
        if (brace < 0) {
          break;
        }
      }
      if (line.startsWith("}}", brace)) {
        found.add(m.group(1));
        from = brace + 2;
      } else {
        from = m.start() + 1;
      }
    }
    return found;
  }

  /**
   * {@link Matcher#find(int)} for {@link #KEYWORD}, tried only where a {@code {{} opens: a search from every
   * character of a line took a tenth of linting a template.
   */
  private static boolean find(Matcher m, String line, int from) {
    for (int open = line.indexOf("{{", from); open >= 0; open = line.indexOf("{{", open + 1)) {
      if (m.region(open, line.length()).lookingAt()) {
        return true;
      }
    }
    return false;
  }

  /** Whether a line holds an action that writes text, unlike control flow, comments or assignments. */
  private static boolean producesOutput(String line) {
    int open = line.indexOf("{{");
    if (open < 0) {
      // The middle of an action that spans lines.
      return false;
    }
    while (open >= 0) {
      if (!CONTROL.matcher(line).region(open, line.length()).lookingAt()) {
        return true;
      }
      open = line.indexOf("{{", open + 2);
    }
    return false;
  }

  /** A line whose whole value ({@code key: ACTION}) or list item ({@code - ACTION}) is one action. */
  private static boolean emitsBlock(String body) {
    String t = body.stripTrailing();
    if (t.isEmpty() || t.charAt(t.length() - 1) != PLACEHOLDER) {
      return false;
    }
    int start = t.length();
    while (start > 0 && t.charAt(start - 1) == PLACEHOLDER) {
      start--;
    }
    if (start == 0 || !Character.isWhitespace(t.charAt(start - 1))) {
      return false;
    }
    String before = t.substring(0, start).strip();
    return before.endsWith(":") || before.equals("-") || before.endsWith(" -");
  }

  private static int trailingActionLength(String body) {
    int end = body.length();
    int k = end;
    while (k > 0 && (body.charAt(k - 1) == PLACEHOLDER || Character.isWhitespace(body.charAt(k - 1)))) {
      k--;
    }
    return end - k;
  }

  /** The next line with content, or an empty string. */
  private static String next(String[] lines, int n) {
    for (int k = n + 1; k < lines.length; k++) {
      String l = lines[k].replace(String.valueOf(PLACEHOLDER), " ");
      if (!l.isBlank()) {
        return lines[k];
      }
    }
    return "";
  }

  private static int indent(String line) {
    int k = 0;
    while (k < line.length() && line.charAt(k) == ' ') {
      k++;
    }
    return line.isBlank() ? -1 : k;
  }
}
