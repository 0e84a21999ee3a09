package io.hooklens.core.engine;

import io.hooklens.core.yaml.Position;
import io.hooklens.core.yaml.Range;
import io.hooklens.core.yaml.Scalars;
import io.hooklens.core.yaml.SourceText;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.core.yaml.YSeq;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Builds minimal text edits over a document's own text, for rules' fixes. Every edit keeps the file's
 * line break, the quote style of what it replaces where that style can hold the new value, the
 * indentation of the mapping it writes into, and the comments around it. An operation that cannot be
 * written faithfully (a block scalar, a key on a line with other content) returns no edits, and then no
 * fix is offered.
 */
public final class Edits {
  private enum Style { PLAIN, SINGLE, DOUBLE, OTHER }

  /** A plain scalar that stays a string: starts with a letter, no indicators, not a YAML 1.1 bool or null. */
  private static final Pattern PLAIN_WORD = Pattern.compile("[A-Za-z][A-Za-z0-9._/-]*");
  // Compiled once, where String.matches compiled them for every fix.
  private static final Pattern ITEM_DASHES = Pattern.compile(" *(- +)+");
  private static final Pattern KEY_DASHES = Pattern.compile(" *(- +)*");
  private static final Pattern WORD_LIST = Pattern.compile("[A-Za-z][A-Za-z0-9._/-]*(, *[A-Za-z][A-Za-z0-9._/-]*)*");
  private static final String SEPARATORS = ", \t";
  /** YAML's one-letter escapes in double quotes, and the chars they stand for. */
  private static final String SINGLE_CHAR_ESCAPES = "0abt\tnvfre \"/\\N_LP";
  private static final String SINGLE_CHAR_VALUES = "\0\u0007\b\t\t\n\u000b\f\r\u001b \"/\\\u0085\u00a0\u2028\u2029";

  private final SourceText source;
  private final boolean json;
  private final String eol;

  Edits(SourceText source, boolean json) {
    this.source = source;
    this.json = json;
    this.eol = source.lineBreak();
  }

  /** Replaces a scalar with a string value, in the scalar's quote style when that style can hold it. */
  public List<TextEdit> replaceString(YScalar s, String value) {
    Style st = style(s);
    String text = switch (st) {
      case DOUBLE -> doubleQuoted(value);
      case SINGLE -> singleOk(value) ? "'" + value.replace("'", "''") + "'" : doubleQuoted(value);
      case PLAIN -> plainOk(value, inFlow(s)) ? value : doubleQuoted(value);
      case OTHER -> null;
    };
    return text == null ? List.of() : List.of(new TextEdit(s.range(), text));
  }

  /** Replaces a plain scalar with a number or other literal text written as is. */
  public List<TextEdit> replaceLiteral(YScalar s, String literal) {
    Style st = style(s);
    if (st == Style.OTHER) {
      return List.of();
    }
    return List.of(new TextEdit(s.range(), literal));
  }

  /** Puts a plain scalar in double quotes as written: {@code 5} becomes {@code "5"}. */
  public List<TextEdit> quote(YScalar s) {
    if (style(s) != Style.PLAIN) {
      return List.of();
    }
    return List.of(new TextEdit(s.range(), doubleQuoted(text(s.range()))));
  }

  /**
   * Replaces the code points {@code [from, to)} of a scalar's value. When that part stands in the line as it
   * is and the replacement needs no escape, only that part changes, so that edits to different items of one
   * list annotation never touch and all apply in one pass; otherwise the whole scalar is rewritten.
   */
  public List<TextEdit> replaceInValue(YScalar s, int from, int to, String replacement) {
    String value = s.value();
    int a = value.offsetByCodePoints(0, from);
    int b = value.offsetByCodePoints(0, to);
    String whole = value.substring(0, a) + replacement + value.substring(b);
    Style st = style(s);
    if (st == Style.OTHER) {
      return List.of();
    }
    int open = st == Style.PLAIN ? 0 : 1;
    String written = text(s.range());
    String inner = written.substring(open, written.length() - open);
    int[] at = writtenAt(inner, st, value);
    boolean inPlace = at != null && inner.substring(at[a], at[b]).equals(value.substring(a, b)) && switch (st) {
      case PLAIN -> plainOk(whole, inFlow(s)) || wordAmongWords(value, a, b, replacement, whole, inFlow(s));
      case SINGLE -> replacement.indexOf('\'') < 0 && singleOk(replacement);
      case DOUBLE -> doubleQuoted(replacement).equals("\"" + replacement + "\"");
      case OTHER -> false;
    };
    if (!inPlace) {
      return replaceString(s, whole);
    }
    Position start = s.range().start();
    int column = start.column() + open;
    Position p0 = new Position(start.line(), column + inner.codePointCount(0, at[a]));
    Position p1 = new Position(start.line(), column + inner.codePointCount(0, at[b]));
    return List.of(new TextEdit(new Range(p0, p1), replacement));
  }

  /**
   * Where each char of a one-line scalar's value starts in its written text between the quotes (one more
   * entry for the end), or null when the text does not read back as the value.
   */
  private static int[] writtenAt(String inner, Style st, String value) {
    int[] at = new int[value.length() + 1];
    StringBuilder read = new StringBuilder(value.length());
    int i = 0;
    while (i < inner.length() && read.length() <= value.length()) {
      int begin = i;
      int from = read.length();
      char c = inner.charAt(i);
      if (st == Style.SINGLE && c == '\'' && i + 1 < inner.length() && inner.charAt(i + 1) == '\'') {
        read.append('\'');
        i += 2;
      } else if (st == Style.DOUBLE && c == '\\' && i + 1 < inner.length()) {
        i = readEscape(inner, i + 1, read);
        if (i < 0) {
          return null;
        }
      } else {
        read.append(c);
        i++;
      }
      for (int k = from; k < read.length() && k < at.length; k++) {
        at[k] = begin;
      }
    }
    if (!read.toString().equals(value)) {
      return null;
    }
    at[value.length()] = inner.length();
    return at;
  }

  /** Reads the YAML escape after a backslash at {@code i}; returns where it ends, or -1 for a bad one. */
  private static int readEscape(String inner, int i, StringBuilder read) {
    char e = inner.charAt(i);
    int digits = switch (e) {
      case 'x' -> 2;
      case 'u' -> 4;
      case 'U' -> 8;
      default -> 0;
    };
    if (digits > 0) {
      if (i + 1 + digits > inner.length()) {
        return -1;
      }
      try {
        read.appendCodePoint(Integer.parseInt(inner.substring(i + 1, i + 1 + digits), 16));
      } catch (IllegalArgumentException bad) {
        return -1;
      }
      return i + 1 + digits;
    }
    int ch = SINGLE_CHAR_ESCAPES.indexOf(e);
    if (ch < 0) {
      return -1;
    }
    read.append(SINGLE_CHAR_VALUES.charAt(ch));
    return i + 1;
  }

  /**
   * Whether a word may replace a part of a plain scalar that sits between commas or blanks: the scalar
   * keeps reading as a string, and no indicator can form next to a letter, a digit or {@code ._/-}.
   */
  private static boolean wordAmongWords(String value, int a, int b, String word, String whole, boolean inFlow) {
    return !inFlow && PLAIN_WORD.matcher(word).matches() && Scalars.type(whole) == YScalar.Type.STRING
        && (a == 0 || SEPARATORS.indexOf(value.charAt(a - 1)) >= 0)
        && (b == value.length() || SEPARATORS.indexOf(value.charAt(b)) >= 0);
  }

  /** Appends to a scalar's value, as a list annotation gets one more item. */
  public List<TextEdit> appendToValue(YScalar s, String suffix) {
    int n = s.value().codePointCount(0, s.value().length());
    return replaceInValue(s, n, n, suffix);
  }

  /** Renames a key of a mapping, in the key's quote style; nothing when the mapping already has the new key. */
  public List<TextEdit> renameKey(YMap map, YScalar key, String newKey) {
    return map.has(newKey) ? List.of() : replaceString(key, newKey);
  }

  /** Inserts {@code key: "value"} (a string) as the first entry of a mapping. */
  public List<TextEdit> insertString(YMap map, String key, String value) {
    return insert(map, key, value);
  }

  /** Inserts {@code key: n} as the first entry of a mapping. */
  public List<TextEdit> insertNumber(YMap map, String key, long value) {
    return insert(map, key, value);
  }

  /**
   * Replaces a mapping entry, key and value, with another entry whose value is written in flow style
   * (strings, longs, lists and maps), keeping the comments the old entry held above the new one.
   */
  public List<TextEdit> replaceEntry(YMap.Entry entry, String key, Object value) {
    boolean quoted = json || style(entry.key()) == Style.DOUBLE;
    Position start = entry.key().range().start();
    Position end = contentEnd(entry.value());
    if (style(entry.key()) == Style.OTHER || end.compareTo(start) <= 0) {
      return List.of();
    }
    StringBuilder sb = new StringBuilder();
    for (String comment : comments(new Range(start, end))) {
      sb.append(comment).append(eol).append(indentAt(start));
    }
    sb.append(key(key, quoted)).append(": ").append(flow(value, quoted, true));
    return List.of(new TextEdit(new Range(start, end), sb.toString()));
  }

  /** Replaces a scalar with a value written in flow style: {@code "sleep 5"} becomes {@code ["sleep", "5"]}. */
  public List<TextEdit> replaceWithFlow(YScalar s, Object value) {
    if (style(s) == Style.OTHER) {
      return List.of();
    }
    return List.of(new TextEdit(s.range(), flow(value, json || style(s) == Style.DOUBLE, true)));
  }

  /** Replaces one item of a sequence with several strings, each an item of its own. */
  public List<TextEdit> splitItem(YSeq seq, int index, List<String> items) {
    YScalar item = seq.get(index).asScalar();
    if (item == null || style(item) == Style.OTHER || items.isEmpty()) {
      return List.of();
    }
    boolean quoted = json || style(item) == Style.DOUBLE;
    List<String> written = items.stream().map(v -> quoted || !plainOk(v, true) ? doubleQuoted(v) : v).toList();
    if (isFlow(seq)) {
      return List.of(new TextEdit(item.range(), String.join(", ", written)));
    }
    String before = prefix(item.range().start());
    if (!ITEM_DASHES.matcher(before).matches()) {
      return List.of();
    }
    int dash = before.lastIndexOf('-');
    String separator = eol + " ".repeat(dash) + "- ";
    return List.of(new TextEdit(item.range(), String.join(separator, written)));
  }

  private List<TextEdit> insert(YMap map, String key, Object value) {
    if (map.entries().isEmpty()) {
      return List.of();
    }
    YScalar first = map.entries().get(0).key();
    Style keyStyle = style(first);
    if (keyStyle == Style.OTHER) {
      return List.of();
    }
    boolean quoted = json || keyStyle == Style.DOUBLE;
    String entry = key(key, quoted) + ": " + flow(value, quoted, isFlow(map));
    Position at = first.range().start();
    String prefix = prefix(at);
    if (isFlow(map)) {
      boolean sameLine = map.range().start().line() == at.line();
      String text = sameLine ? entry + ", " : entry + "," + eol + prefix;
      return prefix.isBlank() || sameLine ? List.of(new TextEdit(new Range(at, at), text)) : List.of();
    }
    // A block mapping's first key starts its line, or follows the dashes of the sequence items it is in.
    if (!KEY_DASHES.matcher(prefix).matches()) {
      return List.of();
    }
    return List.of(new TextEdit(new Range(at, at), entry + eol + " ".repeat(at.column())));
  }

  /** The text of a line before a position. */
  private String prefix(Position p) {
    String line = source.line(p.line());
    int n = Math.min(p.column(), line.codePointCount(0, line.length()));
    return line.substring(0, line.offsetByCodePoints(0, n));
  }

  /** Spaces standing for a position's column; a tab in a JSON file's indentation is kept. */
  private String indentAt(Position p) {
    String prefix = prefix(p);
    return prefix.isBlank() ? prefix : " ".repeat(p.column());
  }

  private String key(String key, boolean quoted) {
    return quoted || !plainOk(key, true) ? doubleQuoted(key) : key;
  }

  /** A value in flow style, strings in double quotes when {@code quoted} or when plain would misread them. */
  @SuppressWarnings("unchecked")
  private String flow(Object value, boolean quoted, boolean inFlow) {
    if (value instanceof Long || value instanceof Integer) {
      return value.toString();
    }
    if (value instanceof String s) {
      return quoted || !plainOk(s, inFlow) ? doubleQuoted(s) : s;
    }
    if (value instanceof List<?> list) {
      List<String> parts = new ArrayList<>();
      for (Object o : list) {
        parts.add(flow(o, quoted, true));
      }
      return "[" + String.join(", ", parts) + "]";
    }
    Map<String, Object> map = (Map<String, Object>) value;
    List<String> parts = new ArrayList<>();
    for (Map.Entry<String, Object> e : map.entrySet()) {
      parts.add(key(e.getKey(), quoted) + ": " + flow(e.getValue(), quoted, true));
    }
    return "{" + String.join(", ", parts) + "}";
  }

  /** Where a node's own text ends: a block collection's end mark lies after its trailing blank lines. */
  private Position contentEnd(YNode n) {
    if (n instanceof YMap m && !m.entries().isEmpty() && !isFlow(m)) {
      return contentEnd(m.entries().get(m.entries().size() - 1).value());
    }
    if (n instanceof YSeq s && s.size() > 0 && !isFlow(s)) {
      return contentEnd(s.get(s.size() - 1));
    }
    return n.range().end();
  }

  /** The comments inside a range, each without the text before its {@code #}. */
  private List<String> comments(Range r) {
    List<String> out = new ArrayList<>();
    for (int l = r.start().line(); l <= r.end().line(); l++) {
      String line = source.line(l);
      int hash = commentStart(line);
      if (hash >= 0) {
        out.add(line.substring(hash).stripTrailing());
      }
    }
    return out;
  }

  /** Where a line's comment starts, outside quotes; -1 when it has none. */
  static int commentStart(String line) {
    char quote = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else if (c == '\\' && quote == '"') {
          i++;
        }
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '#' && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) {
        return i;
      }
    }
    return -1;
  }

  private String text(Range r) {
    return source.text().substring(source.offset(r.start()), Math.max(source.offset(r.start()),
        source.offset(r.end())));
  }

  private Style style(YScalar s) {
    Range r = s.range();
    if (r.start().line() != r.end().line()) {
      return Style.OTHER;
    }
    String t = text(r);
    if (t.isEmpty()) {
      return Style.OTHER;
    }
    char c = t.charAt(0);
    if (c == '"' && t.length() >= 2 && t.endsWith("\"")) {
      return Style.DOUBLE;
    }
    if (c == '\'' && t.length() >= 2 && t.endsWith("'")) {
      return Style.SINGLE;
    }
    // Block scalars, tags and anchors are rewritten by hand or not at all.
    if ("|>!&*\"'".indexOf(c) >= 0 || !t.equals(s.value())) {
      return Style.OTHER;
    }
    return Style.PLAIN;
  }

  private boolean isFlow(YNode n) {
    int at = source.offset(n.range().start());
    return at < source.text().length() && "{[".indexOf(source.text().charAt(at)) >= 0;
  }

  private boolean inFlow(YNode n) {
    for (YNode p = n.parent(); p != null; p = p.parent()) {
      if (isFlow(p)) {
        return true;
      }
    }
    return false;
  }

  /** Whether a string can be written plain and still read back as that string. */
  private static boolean plainOk(String v, boolean inFlow) {
    if (Scalars.type(v) != YScalar.Type.STRING) {
      return false;
    }
    return PLAIN_WORD.matcher(v).matches() || plainText(v, inFlow);
  }

  /** Words separated by commas and spaces read back as written outside flow collections. */
  private static boolean plainText(String v, boolean inFlow) {
    return !inFlow && WORD_LIST.matcher(v).matches();
  }

  /** Whether a one-line single-quoted scalar holds a string as it is: no line breaks, nothing to escape. */
  private static boolean singleOk(String v) {
    return v.codePoints().noneMatch(c -> c == '\n' || c == '\r' || escaped(c));
  }

  /**
   * A double-quoted YAML (and JSON) string that reads back as {@code v} and shows every character: what
   * {@link #escaped} names is written as a four-digit Unicode escape, an escape YAML and JSON both read.
   */
  static String doubleQuoted(String v) {
    StringBuilder sb = new StringBuilder(v.length() + 2).append('"');
    v.codePoints().forEach(c -> {
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\t' -> sb.append("\\t");
        case '\r' -> sb.append("\\r");
        default -> {
          if (escaped(c)) {
            sb.append(String.format("\\u%04x", c));
          } else {
            sb.appendCodePoint(c);
          }
        }
      }
    });
    return sb.append('"').toString();
  }

  /**
   * A code point a fix writes escaped: outside YAML's printable set (controls but tab, line breaks and NEL;
   * DEL, lone surrogates, U+FFFE, U+FFFF), or invisible and a line break to some readers (NEL, U+2028,
   * U+2029), or a byte-order mark, which YAML allows only at the start of a stream.
   */
  static boolean escaped(int c) {
    return c < 0x20 && c != '\t' || c >= 0x7f && c <= 0x9f || c >= 0xd800 && c <= 0xdfff || c == 0x2028
        || c == 0x2029 || c == 0xfeff || c == 0xfffe || c == 0xffff;
  }
}
