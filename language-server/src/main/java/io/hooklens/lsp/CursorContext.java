package io.hooklens.lsp;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.eclipse.lsp4j.Position;

/**
 * Where the cursor is in a manifest, read from the text around it alone: the path of keys and list
 * indices down to it, whether a key, a value or a list item is being typed, and what has been typed so
 * far. It needs no parse, so it works on the line being typed, which is rarely valid YAML yet, and it
 * reads only the lines of the cursor's YAML document (JSON, one document, is scanned up to the end of
 * the object around the cursor). YAML is read by indentation; flow collections are read in JSON files
 * only. Lines of nothing but template actions and comments are passed over.
 *
 * @param kind what is being typed
 * @param path keys (strings) and list indices (integers) from the document root to the mapping that holds
 *     the key being typed or whose value is being typed; for {@link Kind#ITEM}, to the sequence
 * @param key the key whose value is being typed ({@link Kind#VALUE}), else null
 * @param value the whole value or item as written on the line, without quotes (for comma lists)
 * @param before the value or key as typed up to the cursor, without its opening quote
 * @param partial what has been typed of the key, value or comma-separated item up to the cursor
 * @param from where the text to replace starts (UTF-16 column of the cursor's line)
 * @param to where the text to replace ends: the cursor, or just after a closing quote an editor added
 * @param quote the quote the value or key is in ({@code '"'} or {@code '\''}), or 0
 * @param replacesQuotes the text to replace starts at the opening quote (and takes a closing one), so what
 *     replaces it brings its own quotes
 * @param needsSpace a value typed right after {@code key:} needs a space before it
 * @param siblings keys of the mapping the key is typed in, as written (for {@link Kind#KEY})
 * @param indent the column at which the key or item being typed starts
 * @param documentStart the first line of the cursor's YAML document
 * @param documentEnd the line after its last
 */
record CursorContext(Kind kind, List<Object> path, String key, String value, String before, String partial,
    int line, int from, int to, char quote, boolean replacesQuotes, boolean needsSpace, Set<String> siblings,
    boolean json, int indent, int documentStart, int documentEnd) {

  /** What is being typed. */
  enum Kind {
    /** A mapping key. */
    KEY,
    /** The value of {@link CursorContext#key()}. */
    VALUE,
    /** A sequence item ({@code - }) that is not, or not yet, a mapping. */
    ITEM
  }


  /** The items of a comma list other than the one being typed, trimmed and lower-cased, as Helm reads them. */
  Set<String> listed() {
    Set<String> out = new LinkedHashSet<>();
    String[] parts = value.split(",", -1);
    int typing = (int) before.chars().filter(ch -> ch == ',').count();
    for (int i = 0; i < parts.length; i++) {
      String item = parts[i].trim().toLowerCase(Locale.ROOT);
      if (i != typing && !item.isEmpty()) {
        out.add(item);
      }
    }
    return out;
  }

  /** Reads the cursor's context; null when it is in a place no completion applies (a comment, a flow collection). */
  static CursorContext of(TextDocument doc, Position pos, boolean json) {
    Lines lines = new Lines(doc);
    if (pos.getLine() < 0 || pos.getLine() >= lines.count()) {
      return null;
    }
    return json ? json(doc, lines, pos) : yaml(lines, pos);
  }

  // ---- YAML ----

  private static CursorContext yaml(Lines lines, Position pos) {
    int line = pos.getLine();
    String full = lines.get(line);
    int col = Math.min(pos.getCharacter(), full.length());
    String prefix = full.substring(0, col);
    int start = line;
    while (start > 0 && !isSeparator(lines.get(start - 1))) {
      start--;
    }
    int end = line + 1;
    while (end < lines.count() && !isSeparator(lines.get(end))) {
      end++;
    }
    if (isSeparator(full) || prefix.stripLeading().startsWith("#") || prefix.contains("{{")) {
      return null;
    }
    int ind = indent(prefix);
    int content = ind;
    boolean item = false;
    int dash = -1;
    String rest = prefix.substring(ind);
    if (rest.equals("-") || rest.startsWith("- ")) {
      item = true;
      dash = ind;
      content = ind + 1 + indent(rest.substring(1));
      rest = prefix.substring(content);
    }
    if (rest.startsWith("{") || rest.startsWith("[")) {
      return null;
    }
    Deque<Object> path = new ArrayDeque<>();
    Kind kind;
    String key = null;
    String value;
    String typed;
    int from;
    boolean needsSpace = false;
    KeyValue m = KeyValue.of(rest);
    if (m != null) {
      kind = Kind.VALUE;
      key = unquote(m.key().strip());
      int valueCol = m.spaced() ? content + m.valueStart() : col;
      needsSpace = !m.spaced();
      String after = full.substring(valueCol);
      typed = full.substring(valueCol, col);
      value = after;
      from = valueCol;
      if (item) {
        // "- key: value" opens a mapping item whose first key is being given a value.
        scanParents(lines, line - 1, start, dash, true, path);
      } else {
        scanParents(lines, line - 1, start, content, false, path);
      }
    } else if (item) {
      kind = Kind.ITEM;
      typed = rest;
      value = full.substring(content);
      from = content;
      scanParents(lines, line - 1, start, dash, true, path);
      // The index of the new item is the last path element; the sequence is its parent.
    } else {
      kind = Kind.KEY;
      typed = rest;
      value = rest;
      from = content;
      scanParents(lines, line - 1, start, content, false, path);
    }
    char quote = 0;
    String before = typed;
    if (!typed.isEmpty() && (typed.charAt(0) == '"' || typed.charAt(0) == '\'')) {
      quote = typed.charAt(0);
      before = typed.substring(1);
      int close = value.indexOf(quote, 1);
      value = close < 0 ? value.substring(1) : value.substring(1, close);
    } else {
      int comment = value.indexOf(" #");
      value = (comment >= 0 ? value.substring(0, comment) : value).strip();
    }
    boolean closed = quote != 0 && col < full.length() && full.charAt(col) == quote;
    Set<String> siblings = kind == Kind.KEY ? yamlSiblings(lines, line, start, end, content) : Set.of();
    return build(kind, new ArrayList<>(path), key, value, before, line, from, col, closed, quote, needsSpace,
        siblings, false, content, start, end);
  }

  /**
   * Builds the path of the node at column {@code column} on the cursor's line by walking up to its parents.
   *
   * @param inItem the cursor's node is an item of a sequence whose dashes are at {@code column}
   */
  private static void scanParents(Lines lines, int from, int start, int column, boolean inItem, Deque<Object> path) {
    int limit = column;
    int index = 0;
    for (int l = from; l >= start; l--) {
      String s = lines.get(l);
      if (skip(s)) {
        continue;
      }
      int i = indent(s);
      String c = s.substring(i);
      boolean dash = c.equals("-") || c.startsWith("- ");
      if (inItem) {
        if (i > limit) {
          continue;
        }
        if (i == limit && dash) {
          index++;
          continue;
        }
        // This line holds the key of the sequence (which may sit at the dashes' column).
        path.addFirst(index);
        inItem = false;
      } else if (i >= limit) {
        continue;
      } else if (dash && i + 1 + indent(c.substring(1)) >= limit) {
        // The cursor's mapping is this item.
        inItem = true;
        index = 0;
        limit = i;
        continue;
      }
      if (!parentKey(c, dash, path)) {
        return;
      }
      inItem = dash;
      index = 0;
      limit = i;
    }
    if (inItem) {
      path.addFirst(index);
    }
  }

  /** Adds the key of a parent line ({@code key:} or {@code - key:}); false when the line holds no key. */
  private static boolean parentKey(String content, boolean dash, Deque<Object> path) {
    String c = dash ? content.substring(1).strip() : content;
    KeyValue m = KeyValue.of(c);
    if (m == null) {
      return false;
    }
    path.addFirst(unquote(m.key().strip()));
    return true;
  }

  /** Keys of the mapping whose keys start at {@code column}, around the cursor's line. */
  private static Set<String> yamlSiblings(Lines lines, int line, int start, int end, int column) {
    Set<String> keys = new LinkedHashSet<>();
    for (int l = line - 1; l >= start; l--) {
      String s = lines.get(l);
      if (skip(s)) {
        continue;
      }
      int i = indent(s);
      String c = s.substring(i);
      boolean dash = c.equals("-") || c.startsWith("- ");
      if (i > column) {
        continue;
      }
      if (dash && i + 1 + indent(c.substring(1)) == column) {
        addKey(c.substring(1).strip(), keys);
        break;
      }
      if (i < column || dash) {
        break;
      }
      addKey(c, keys);
    }
    for (int l = line + 1; l < end; l++) {
      String s = lines.get(l);
      if (skip(s)) {
        continue;
      }
      int i = indent(s);
      if (i < column || (i == column && s.substring(i).startsWith("-"))) {
        break;
      }
      if (i == column) {
        addKey(s.substring(i), keys);
      }
    }
    return keys;
  }

  private static void addKey(String content, Set<String> keys) {
    KeyValue m = KeyValue.of(content);
    if (m != null) {
      keys.add(unquote(m.key().strip()));
    }
  }

  private static boolean isSeparator(String line) {
    return (line.startsWith("---") && (line.length() == 3 || Character.isWhitespace(line.charAt(3))))
        || line.strip().equals("...");
  }

  /** Blank lines, comments and lines of nothing but template actions say nothing about structure. */
  private static boolean skip(String line) {
    String t = line.strip();
    return t.isEmpty() || t.startsWith("#") || (t.startsWith("{{") && onlyActions(t));
  }

  /**
   * Whether a line is nothing but template actions ({@code {{ ... }}}, each ending at the first pair of closing
   * braces on its line) and blanks.
   */
  static boolean onlyActions(String t) {
    int i = 0;
    while (true) {
      int open = t.indexOf("{{", i);
      if (open < 0) {
        return blank(t, i, t.length());
      }
      if (!blank(t, i, open)) {
        return false;
      }
      int close = t.indexOf("}}", open + 2);
      if (close < 0 || KeyValue.breaksLine(t, open + 2, close)) {
        return false;
      }
      i = close + 2;
    }
  }

  private static boolean blank(String s, int from, int to) {
    for (int k = from; k < to; k++) {
      if (!Character.isWhitespace(s.charAt(k))) {
        return false;
      }
    }
    return true;
  }

  /**
   * A {@code key: value} at the start of a line's content; the colon needs a blank or the end of the line after
   * it. Read by hand in one pass: the lines come from the client and have no length limit, and a regular
   * expression's backtracking over a long quoted key overflows the stack.
   *
   * <p>It reads what the expression it replaced matched whole, with the same groups
   * ({@code CursorContextKeyValueTest} compares them): the key is a double-quoted string (backslash escapes), a
   * single-quoted one ({@code ''} for a quote) or plain text that starts with none of {@code # ' " [}, an opening
   * brace or a blank and holds no {@code #}, the shortest such text after which the rest reads as
   * {@code : value}.
   *
   * @param key the key as written, quotes included (group 1)
   * @param spaced blanks follow the colon (group 2 matched)
   * @param valueStart where the value starts after those blanks (the start of group 3)
   */
  record KeyValue(String key, boolean spaced, int valueStart) {
    /** Null when the text is not a key, or not followed by a colon and a blank or the end. */
    static KeyValue of(String s) {
      int n = s.length();
      if (n == 0) {
        return null;
      }
      int lastBreak = lastLineBreak(s);
      char first = s.charAt(0);
      if (first == '"') {
        int i = 1;
        while (i < n && s.charAt(i) != '"') {
          if (s.charAt(i) == '\\') {
            if (i + 1 >= n || isLineBreak(s.charAt(i + 1))) {
              return null;
            }
            i += 2;
          } else {
            i++;
          }
        }
        return i >= n ? null : after(s, i + 1, i + 1, lastBreak);
      }
      if (first == '\'') {
        int i = 1;
        while (i < n && !(s.charAt(i) == '\'' && (i + 1 >= n || s.charAt(i + 1) != '\''))) {
          i += s.charAt(i) == '\'' ? 2 : 1;
        }
        return i >= n ? null : after(s, i + 1, i + 1, lastBreak);
      }
      if (isBlank(first) || first == '#' || first == '{' || first == '[') {
        return null;
      }
      for (int p = 1; p < n; p++) {
        char c = s.charAt(p);
        if (c == '#') {
          return null;
        }
        if (c == ':') {
          int keyEnd = p;
          while (keyEnd > 1 && isBlank(s.charAt(keyEnd - 1))) {
            keyEnd--;
          }
          KeyValue kv = after(s, keyEnd, p, lastBreak);
          if (kv != null) {
            return kv;
          }
        }
      }
      return null;
    }

    /** The key ends at {@code keyEnd}; blanks and then a colon must follow, and blanks or the end after that. */
    private static KeyValue after(String s, int keyEnd, int from, int lastBreak) {
      int n = s.length();
      int p = from;
      while (p < n && isBlank(s.charAt(p))) {
        p++;
      }
      if (p >= n || s.charAt(p) != ':') {
        return null;
      }
      if (p + 1 == n) {
        return new KeyValue(s.substring(0, keyEnd), false, n);
      }
      if (!isBlank(s.charAt(p + 1))) {
        return null;
      }
      int q = p + 1;
      while (q < n && isBlank(s.charAt(q))) {
        q++;
      }
      // The value runs to the end of the text, and never over a line break.
      return q > lastBreak ? new KeyValue(s.substring(0, keyEnd), true, q) : null;
    }

    /** What {@code \s} matches. */
    private static boolean isBlank(char c) {
      return c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
    }

    /** The characters {@code .} does not match. */
    private static boolean isLineBreak(char c) {
      return c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029';
    }

    private static int lastLineBreak(String s) {
      for (int i = s.length() - 1; i >= 0; i--) {
        if (isLineBreak(s.charAt(i))) {
          return i;
        }
      }
      return -1;
    }

    static boolean breaksLine(String s, int from, int to) {
      for (int i = from; i < to; i++) {
        if (isLineBreak(s.charAt(i))) {
          return true;
        }
      }
      return false;
    }
  }

  private static int indent(String s) {
    int i = 0;
    while (i < s.length() && s.charAt(i) == ' ') {
      i++;
    }
    return i;
  }

  static String unquote(String s) {
    if (s.length() >= 2 && (s.charAt(0) == '"' || s.charAt(0) == '\'') && s.charAt(s.length() - 1) == s.charAt(0)) {
      return s.substring(1, s.length() - 1);
    }
    return s;
  }

  /**
   * The context with the comma-separated item being typed: the first item replaces the value's quotes (and a
   * closing quote the editor added), later ones are typed inside them.
   */
  private static CursorContext build(Kind kind, List<Object> path, String key, String value, String before,
      int line, int from, int cursor, boolean closingQuote, char quote, boolean needsSpace, Set<String> siblings,
      boolean json, int indent, int start, int end) {
    int comma = before.lastIndexOf(',');
    String partial = comma < 0 ? before : before.substring(comma + 1);
    int lead = indent(partial);
    partial = partial.substring(lead);
    boolean replacesQuotes = quote != 0 && comma < 0;
    int replaceFrom = replacesQuotes ? from : from + (quote != 0 ? 1 : 0) + comma + 1 + lead;
    int to = replacesQuotes && closingQuote ? cursor + 1 : cursor;
    return new CursorContext(kind, List.copyOf(path), key, value, before, partial, line, replaceFrom, to, quote,
        replacesQuotes, needsSpace, Collections.unmodifiableSet(siblings), json, indent, start, end);
  }

  // ---- JSON ----

  /** An object or array open at the cursor. */
  private static final class Frame {
    final boolean object;
    final Object at;
    final Set<String> keys = new LinkedHashSet<>();
    String key;
    int index;
    boolean expectKey = true;

    Frame(boolean object, Object at) {
      this.object = object;
      this.at = at;
    }
  }

  private static CursorContext json(TextDocument doc, Lines lines, Position pos) {
    String t = doc.text();
    int cursor = doc.offsetAt(pos);
    Deque<Frame> stack = new ArrayDeque<>();
    int stringStart = -1;
    int i = 0;
    while (i < cursor) {
      char c = t.charAt(i);
      Frame top = stack.peek();
      if (c == '"') {
        int close = stringEnd(t, i);
        if (close >= cursor) {
          stringStart = i;
          break;
        }
        if (top != null && top.object && top.expectKey) {
          top.key = t.substring(i + 1, close);
          top.keys.add(top.key);
        }
        i = close + 1;
        continue;
      }
      switch (c) {
        case '{', '[' -> stack.push(new Frame(c == '{', top == null ? null : top.object ? top.key : top.index));
        case '}', ']' -> {
          if (!stack.isEmpty()) {
            stack.pop();
          }
        }
        case ',' -> {
          if (top != null && top.object) {
            top.expectKey = true;
            top.key = null;
          } else if (top != null) {
            top.index++;
          }
        }
        case ':' -> {
          if (top != null && top.object) {
            top.expectKey = false;
          }
        }
        default -> { }
      }
      i++;
    }
    Frame top = stack.peek();
    if (top == null) {
      return null;
    }
    List<Object> path = new ArrayList<>();
    List<Frame> frames = new ArrayList<>(stack);
    Collections.reverse(frames);
    for (Frame f : frames) {
      if (f.at != null) {
        path.add(f.at);
      }
    }
    Kind kind = top.object ? (top.expectKey ? Kind.KEY : Kind.VALUE) : Kind.ITEM;
    if (kind == Kind.ITEM) {
      path.add(top.index);
    }
    int lineStart = doc.offsetAt(new Position(pos.getLine(), 0));
    String before;
    String value;
    int from;
    char quote = 0;
    boolean closed = false;
    if (stringStart >= 0) {
      quote = '"';
      from = stringStart;
      before = t.substring(stringStart + 1, cursor);
      int close = stringEnd(t, stringStart);
      int lineEnd = lineStart + lines.get(pos.getLine()).length();
      value = t.substring(stringStart + 1, Math.min(close, lineEnd));
      closed = close < t.length() && close == cursor;
    } else {
      from = cursor;
      while (from > lineStart && (Character.isLetterOrDigit(t.charAt(from - 1)) || "-_./".indexOf(t.charAt(from - 1))
          >= 0)) {
        from--;
      }
      before = t.substring(from, cursor);
      value = before;
    }
    Set<String> siblings = new LinkedHashSet<>(top.keys);
    if (kind == Kind.KEY) {
      siblings.remove(before);
      siblings.addAll(keysAfter(t, stringStart >= 0 ? stringEnd(t, stringStart) + 1 : cursor));
    }
    return build(kind, path, kind == Kind.VALUE ? top.key : null, value, before, pos.getLine(), from - lineStart,
        cursor - lineStart, closed, quote, false, siblings, true, 0, 0, lines.count());
  }

  /** The index of the quote that closes the string opened at {@code open}, or the text's length. */
  private static int stringEnd(String t, int open) {
    for (int k = open + 1; k < t.length(); k++) {
      char c = t.charAt(k);
      if (c == '\\') {
        k++;
      } else if (c == '"' || c == '\n') {
        return k;
      }
    }
    return t.length();
  }

  /** Keys of the object open at {@code from}, from there to its end. */
  private static Set<String> keysAfter(String t, int from) {
    Set<String> keys = new LinkedHashSet<>();
    int depth = 0;
    for (int k = from; k < t.length(); k++) {
      char c = t.charAt(k);
      if (c == '"') {
        int close = stringEnd(t, k);
        int next = close + 1;
        while (next < t.length() && Character.isWhitespace(t.charAt(next))) {
          next++;
        }
        if (depth == 0 && next < t.length() && t.charAt(next) == ':') {
          keys.add(t.substring(k + 1, Math.min(close, t.length())));
        }
        k = close;
      } else if (c == '{' || c == '[') {
        depth++;
      } else if (c == '}' || c == ']') {
        if (--depth < 0) {
          break;
        }
      }
    }
    return keys;
  }

  /** The lines of a snapshot, read one at a time. */
  private record Lines(TextDocument doc) {
    int count() {
      return doc.lineCount();
    }

    String get(int line) {
      int start = doc.offsetAt(new Position(line, 0));
      int end = doc.offsetAt(new Position(line, Integer.MAX_VALUE));
      return doc.text().substring(start, end);
    }
  }
}
