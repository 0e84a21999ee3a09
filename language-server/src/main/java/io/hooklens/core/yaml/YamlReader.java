package io.hooklens.core.yaml;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.common.ScalarStyle;
import org.snakeyaml.engine.v2.events.AliasEvent;
import org.snakeyaml.engine.v2.events.CollectionStartEvent;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.events.NodeEvent;
import org.snakeyaml.engine.v2.events.ScalarEvent;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.ReaderException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.parser.ParserImpl;
import org.snakeyaml.engine.v2.scanner.StreamReader;

/**
 * Reads YAML and JSON text into positioned {@link YNode} trees straight from snakeyaml-engine's event
 * stream. Building the tree ourselves, with an explicit stack, is what lets hostile input be refused
 * with a position instead of a stack overflow or an exponential alias expansion: nesting depth,
 * aliases and expanded size are all counted as the events arrive.
 *
 * <p>A syntax error ends only the document it is in: reading resumes at the next {@code ---} line.
 */
public final class YamlReader {
  /** Limits that keep a hostile file from exhausting the process. */
  public record Limits(int maxDepth, int maxAliases, long maxExpandedNodes) {
    public static final Limits DEFAULT = new Limits(500, 1_000, 5_000_000L);
  }

  private final Limits limits;

  public YamlReader() {
    this(Limits.DEFAULT);
  }

  public YamlReader(Limits limits) {
    this.limits = limits;
  }

  /**
   * Reads a file; {@code json} replaces tabs (JSON whitespace, but not YAML indentation) first, and, when the
   * text starts with {@code &#123;} as kubectl's decoder checks before it reads a stream as JSON, takes only JSON's
   * literals as plain scalars.
   */
  public ParsedFile read(SourceText source, boolean json) {
    String text = source.text();
    boolean strict = json && text.stripLeading().startsWith("{");
    if (json && text.indexOf('\t') >= 0) {
      // Same length, so every offset stays true; tabs cannot occur raw inside JSON strings.
      text = text.replace('\t', ' ');
    }
    ParsedFile parsed = readText(source, text, strict);
    if (parsed.problems().stream().anyMatch(p -> p.message().contains(EMPTY_BLOCK_SCALAR_BUG))) {
      String patched = emptyBlockScalarsAsEmptyStrings(text);
      if (!patched.equals(text)) {
        parsed = readText(source, patched, strict);
      }
    }
    return parsed;
  }

  private ParsedFile readText(SourceText source, String text, boolean json) {
    List<YamlDocument> documents = new ArrayList<>();
    List<ParseProblem> problems = new ArrayList<>();
    int startLine = 0;
    while (startLine >= 0) {
      startLine = readFrom(source, text, startLine, text.length(), documents, problems, json);
    }
    return new ParsedFile(source, documents, problems);
  }

  /**
   * Reads a YAML stream (not JSON) as {@link #read(SourceText, boolean)} does, one {@code ---} chunk at
   * a time, taking each chunk whose text, first line and first document index are those of a chunk of
   * {@code previous} as it was read there: an edit inside one document reads only that document. The
   * result is the same as a fresh read's. Where that could differ (a syntax error or a refused
   * document, which a fresh read resumes from differently; directives or {@code ...} markers, which
   * belong to the stream), the whole text is read afresh, and the chunks are still kept for next time.
   */
  public DocumentChunks read(SourceText source, DocumentChunks previous) {
    String text = source.text();
    List<Integer> starts = chunkStarts(source);
    if (starts == null) {
      return new DocumentChunks(read(source, false), text, List.of());
    }
    List<DocumentChunks.Chunk> chunks = new ArrayList<>(starts.size());
    List<YamlDocument> documents = new ArrayList<>();
    List<ParseProblem> problems = new ArrayList<>();
    boolean exact = true;
    for (int i = 0; exact && i < starts.size(); i++) {
      int line = starts.get(i);
      int start = source.lineStart(line);
      int end = i + 1 < starts.size() ? source.lineStart(starts.get(i + 1)) : text.length();
      DocumentChunks.Chunk chunk = previous.reusable(line, documents.size(), text, start, end);
      if (chunk == null) {
        List<YamlDocument> docs = new ArrayList<>();
        List<ParseProblem> found = new ArrayList<>();
        readFrom(source, text, line, end, docs, found, false);
        // Indices count from the chunk's first document.
        List<YamlDocument> indexed = new ArrayList<>(docs.size());
        for (YamlDocument d : docs) {
          indexed.add(new YamlDocument(documents.size() + indexed.size(), d.root(), d.range()));
        }
        chunk = new DocumentChunks.Chunk(line, start, end, documents.size(), List.copyOf(indexed),
            List.copyOf(found));
      }
      chunks.add(chunk);
      documents.addAll(chunk.documents());
      problems.addAll(chunk.problems());
      exact = !chunk.broken();
    }
    ParsedFile parsed = exact ? new ParsedFile(source, documents, problems) : read(source, false);
    return new DocumentChunks(parsed, text, chunks);
  }

  /**
   * The first line of each chunk: line 0 and each {@code ---} line. Null when the stream has
   * directives or {@code ...} markers, whose effect reaches past one chunk.
   */
  private static List<Integer> chunkStarts(SourceText source) {
    String text = source.text();
    List<Integer> starts = new ArrayList<>();
    starts.add(0);
    for (int line = 0; line < source.lineCount(); line++) {
      int at = source.lineStart(line);
      if (at >= text.length()) {
        break;
      }
      char c = text.charAt(at);
      if (c == '%') {
        return null;
      }
      if ((c == '-' || c == '.') && isMarker(text, at, c)) {
        if (c == '.') {
          return null;
        }
        if (line > 0) {
          starts.add(line);
        }
      }
    }
    return starts;
  }

  private static boolean isMarker(String text, int at, char c) {
    if (at + 3 > text.length() || text.charAt(at + 1) != c || text.charAt(at + 2) != c) {
      return false;
    }
    if (at + 3 == text.length()) {
      return true;
    }
    char next = text.charAt(at + 3);
    return next == ' ' || next == '\t' || next == '\n' || next == '\r';
  }

  /**
   * snakeyaml-engine refuses a nested block scalar with no content ({@code key: |} followed by a
   * less indented line), which YAML and go-yaml accept as an empty string; Helm renders such text.
   */
  private static final String EMPTY_BLOCK_SCALAR_BUG = "leading empty lines contain more spaces";
  private static final Pattern BLOCK_HEADER =
      Pattern.compile("^( *)(?:- +|[^#\"'\n]*?:[ \t]+)([|>][-+0-9]*)[ \t]*(#.*)?$");

  /** Rewrites the indicator of each empty block scalar as a same-length empty string or null. */
  static String emptyBlockScalarsAsEmptyStrings(String text) {
    String[] lines = text.split("\n", -1);
    boolean changed = false;
    for (int n = 0; n < lines.length; n++) {
      if (lines[n].indexOf('|') < 0 && lines[n].indexOf('>') < 0) {
        // No block indicator: the pattern cannot match, and trying it costs time quadratic in the line's length.
        continue;
      }
      String line = lines[n].endsWith("\r") ? lines[n].substring(0, lines[n].length() - 1) : lines[n];
      Matcher m = BLOCK_HEADER.matcher(line);
      if (!m.matches()) {
        continue;
      }
      int indent = m.group(1).length();
      int next = n + 1;
      while (next < lines.length && lines[next].isBlank()) {
        next++;
      }
      int nextIndent = next < lines.length ? lines[next].length() - lines[next].stripLeading().length() : -1;
      if (nextIndent > indent) {
        continue;
      }
      String indicator = m.group(2);
      String replacement = indicator.length() >= 2 ? "\"\"" + " ".repeat(indicator.length() - 2) : "~";
      lines[n] = lines[n].substring(0, m.start(2)) + replacement + lines[n].substring(m.end(2));
      changed = true;
    }
    return changed ? String.join("\n", lines) : text;
  }

  /**
   * Reads from a line to an offset ({@code end}) or to a syntax error; returns the line to resume at,
   * or -1.
   */
  private int readFrom(SourceText source, String text, int startLine, int end, List<YamlDocument> documents,
      List<ParseProblem> problems, boolean json) {
    String chunk = startLine == 0 && end == text.length() ? text : text.substring(source.lineStart(startLine), end);
    if (chunk.endsWith("\r")) {
      // snakeyaml does not count a CR that ends its input as a line break, as the line table does; with an LF
      // after it, it is the same one break.
      chunk = chunk + "\n";
    }
    int bufferSize = bufferSize(source, startLine, end);
    LoadSettings settings = bufferSize == DEFAULT_BUFFER ? DEFAULT_SETTINGS : settings(bufferSize);
    ParserImpl parser = new ParserImpl(settings, new StreamReader(settings, chunk));
    Composer composer = new Composer(startLine, documents.size(), problems, json);
    try {
      while (parser.hasNext()) {
        Event event = parser.next();
        YamlDocument done = composer.accept(event);
        if (done != null) {
          documents.add(done);
        }
      }
      return -1;
    } catch (LimitExceeded e) {
      problems.add(new ParseProblem(ParseProblem.Kind.LIMIT, e.range, e.getMessage()));
      documents.add(new YamlDocument(documents.size(), null, new Range(composer.docStart(), e.range.end())));
      return resumeLine(source, text, e.range.start().line(), startLine);
    } catch (MarkedYamlEngineException e) {
      Position at = e.getProblemMark().or(e::getContextMark)
          .map(m -> new Position(m.getLine() + startLine, m.getColumn()))
          .orElse(new Position(startLine, 0));
      String what = e.getProblem() == null ? "invalid YAML" : e.getProblem();
      String context = e.getContext() == null ? "" : " (" + e.getContext() + ")";
      problems.add(new ParseProblem(ParseProblem.Kind.SYNTAX, new Range(at, at), what + context));
      documents.add(new YamlDocument(documents.size(), null, new Range(composer.docStart(), at)));
      return resumeLine(source, text, at.line(), startLine);
    } catch (ReaderException e) {
      // The reader checks characters ahead of the scanner and knows only the code point's index.
      int chunkStart = source.lineStart(startLine);
      int offset = chunk.offsetByCodePoints(0, Math.min(e.getPosition(), chunk.codePointCount(0, chunk.length())));
      Position at = source.positionAt(chunkStart + offset);
      int c = e.getCodePoint();
      problems.add(new ParseProblem(ParseProblem.Kind.SYNTAX, new Range(at, at), "the "
          + (Character.isISOControl(c) ? "control character" : "character") + " " + codePointName(c)
          + " is not allowed in YAML; write it as an escape in a double-quoted string"));
      documents.add(new YamlDocument(documents.size(), null, new Range(composer.docStart(), at)));
      return resumeLine(source, text, at.line(), startLine);
    } catch (YamlEngineException e) {
      Position at = composer.docStart();
      problems.add(new ParseProblem(ParseProblem.Kind.SYNTAX, new Range(at, at), e.getMessage()));
      return resumeLine(source, text, at.line(), startLine);
    }
  }

  /** {@code U+} and at least four upper-case hex digits; String.format took more time than reading the chunk. */
  static String codePointName(int c) {
    String hex = Integer.toHexString(c).toUpperCase(Locale.ROOT);
    return "U+" + "0".repeat(Math.max(0, 4 - hex.length())) + hex;
  }

  /**
   * snakeyaml-engine's look-ahead window: its default of 1024 characters, or the longest line of the text read
   * and a little more. The scanner looks ahead over a whole word or line before it moves, and each time the window
   * is too short it copies all it holds to read one buffer more: a 10 MB line would be copied ten thousand times.
   * The look-ahead stops at a line break, so a window one line long is refilled a bounded number of times per
   * line.
   */
  private static int bufferSize(SourceText source, int startLine, int end) {
    int longest = 0;
    for (int line = startLine; line < source.lineCount() && source.lineStart(line) < end; line++) {
      int next = line + 1 < source.lineCount() ? source.lineStart(line + 1) : end;
      longest = Math.max(longest, Math.min(next, end) - source.lineStart(line));
    }
    // Two more: the scanner peeks at the line break and at the character after it.
    return Math.max(DEFAULT_BUFFER, longest + 2);
  }

  private static final int DEFAULT_BUFFER = 1024;

  /**
   * Settings are immutable and their builder makes a schema and its resolvers each time, a tenth of reading a small
   * document, so the usual ones are made once.
   */
  private static final LoadSettings DEFAULT_SETTINGS = settings(DEFAULT_BUFFER);

  private static LoadSettings settings(int bufferSize) {
    return LoadSettings.builder()
        .setCodePointLimit(Integer.MAX_VALUE)
        .setBufferSize(bufferSize)
        .setAllowDuplicateKeys(true)
        .setUseMarks(true)
        .build();
  }

  /**
   * The first document-marker line at or after the error line, and after the line reading started
   * at, so that every restart makes progress; -1 when there is none.
   */
  private static int resumeLine(SourceText source, String text, int errorLine, int startLine) {
    int from = Math.max(errorLine, startLine + 1);
    if (from >= source.lineCount()) {
      return -1;
    }
    int offset = markerFrom(text, source.lineStart(from));
    if (offset < 0) {
      return -1;
    }
    int lo = from;
    int hi = source.lineCount() - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (source.lineStart(mid) <= offset) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  /**
   * The offset of the first {@code ---} or {@code ...} at or after an offset that starts a line and ends at a
   * blank or a line break, or -1. Lines start and end at every break a regular expression's {@code ^} and
   * {@code $} know, {@code \u0085}, {@code \u2028} and {@code \u2029} included, as the pattern this replaces did.
   */
  static int markerFrom(String text, int from) {
    for (int at = from; at + 3 <= text.length(); at++) {
      char c = text.charAt(at);
      if ((c == '-' || c == '.') && (at == 0 || lineBreak(text.charAt(at - 1)))
          && text.charAt(at + 1) == c && text.charAt(at + 2) == c
          && (at + 3 == text.length() || text.charAt(at + 3) == ' ' || text.charAt(at + 3) == '\t'
              || lineBreak(text.charAt(at + 3)))) {
        return at;
      }
    }
    return -1;
  }

  private static boolean lineBreak(char c) {
    return c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029';
  }

  static YScalar.Type resolve(ScalarEvent e) {
    if (e.getScalarStyle() != ScalarStyle.PLAIN) {
      return YScalar.Type.STRING;
    }
    if (e.getTag().isPresent() && !e.getImplicit().canOmitTagInPlainScalar()) {
      String tag = e.getTag().get();
      if (tag.endsWith(":int")) {
        // go-yaml refuses a !!int it cannot read as one; so does the API, for want of a number.
        return Scalars.type(e.getValue()) == YScalar.Type.INT ? YScalar.Type.INT : YScalar.Type.STRING;
      }
      if (tag.endsWith(":str")) {
        return YScalar.Type.STRING;
      }
    }
    return Scalars.type(e.getValue());
  }

  /** Scalars up to this length are shared; longer ones rarely repeat. */
  private static final int SHARED_LENGTH = 64;

  private static final class LimitExceeded extends RuntimeException {
    final Range range;

    LimitExceeded(String message, Range range) {
      super(message, null, false, false);
      this.range = range;
    }
  }

  /** Turns events into nodes, one document at a time. */
  private final class Composer {
    /** Plain scalars must be JSON literals; a document with another one is refused, as kubectl's decoder does. */
    private final boolean json;
    private boolean notJson;
    private final int lineOffset;
    private int nextIndex;
    private final List<ParseProblem> problems;
    private final Deque<Frame> stack = new ArrayDeque<>();
    private final Map<String, Anchored> anchors = new HashMap<>();
    private final Set<String> open = new HashSet<>();
    private final Map<String, String> strings = new HashMap<>();
    private Position docStart;
    private YNode root;
    private int aliases;
    private long expanded;

    Composer(int lineOffset, int firstIndex, List<ParseProblem> problems, boolean json) {
      this.json = json;
      this.lineOffset = lineOffset;
      this.nextIndex = firstIndex;
      this.problems = problems;
      this.docStart = new Position(lineOffset, 0);
    }

    Position docStart() {
      return docStart;
    }

    private Position pos(Optional<Mark> mark) {
      return mark.map(m -> new Position(m.getLine() + lineOffset, m.getColumn())).orElse(docStart);
    }

    YamlDocument accept(Event event) {
      switch (event.getEventId()) {
        case DocumentStart -> {
          docStart = pos(event.getStartMark());
          root = null;
          notJson = false;
          anchors.clear();
          aliases = 0;
          expanded = 0;
        }
        case DocumentEnd -> {
          return new YamlDocument(nextIndex++, notJson ? null : root, new Range(docStart, pos(event.getEndMark())));
        }
        case Scalar -> {
          ScalarEvent e = (ScalarEvent) event;
          YScalar s = new YScalar(new Range(pos(e.getStartMark()), pos(e.getEndMark())), shared(e.getValue()),
              resolve(e), e.getScalarStyle() != ScalarStyle.PLAIN);
          // An empty value is where an editor asks for completions, mid-edit; a template action's value is unknown.
          if (json && !notJson && !s.quoted() && !s.value().isEmpty() && !s.isTemplated()
              && !Scalars.isJsonLiteral(s.value())) {
            notJson = true;
            notJson(s);
          }
          anchor(e, s, 1);
          add(s, 1, 1);
        }
        case Alias -> {
          AliasEvent e = (AliasEvent) event;
          String name = e.getAlias().getValue();
          Range at = new Range(pos(e.getStartMark()), pos(e.getEndMark()));
          Anchored target = anchors.get(name);
          if (target == null) {
            String why = open.contains(name) ? "refers to a node that contains it" : "is not defined";
            throw new LimitExceeded("Alias *" + name + " " + why, at);
          }
          if (!(target.node() instanceof YScalar) && ++aliases > limits.maxAliases()) {
            throw new LimitExceeded("More than " + limits.maxAliases()
                + " aliases to collections in one document; refused to protect against alias bombs", at);
          }
          // Expanding the alias copies the whole anchored subtree into the document.
          add(target.node(), target.weight(), target.weight());
        }
        case MappingStart, SequenceStart -> {
          CollectionStartEvent e = (CollectionStartEvent) event;
          if (stack.size() >= limits.maxDepth()) {
            throw new LimitExceeded("Nesting deeper than " + limits.maxDepth() + " levels",
                new Range(pos(e.getStartMark()), pos(e.getStartMark())));
          }
          e.getAnchor().ifPresent(a -> open.add(a.getValue()));
          stack.push(new Frame(e, event.getEventId() == Event.ID.MappingStart, pos(e.getStartMark())));
        }
        case MappingEnd, SequenceEnd -> {
          Frame f = stack.pop();
          Range range = new Range(f.start, pos(event.getEndMark()));
          YNode node = f.map ? f.toMap(range, problems) : f.toSeq(range);
          f.event.getAnchor().ifPresent(a -> open.remove(a.getValue()));
          anchor(f.event, node, f.weight);
          // Its items were counted as they arrived.
          add(node, 1, f.weight);
        }
        default -> {
          // StreamStart, StreamEnd and comments carry nothing for the tree.
        }
      }
      return null;
    }

    private void notJson(YScalar s) {
      String v = s.value();
      String what = "\"" + v + "\" is not a JSON value"
          + (v.matches("[-+]?[0-9].*") ? " (JSON numbers are decimal, without leading zeros, a + or _)"
              : " (JSON strings are quoted; only true, false and null are not)");
      problems.add(new ParseProblem(ParseProblem.Kind.SYNTAX, s.range(), what
          + "; kubectl reads a file that starts with { as JSON and rejects it"));
    }

    /** One string for each distinct short scalar: keys and small values repeat in every object of a file. */
    private String shared(String value) {
      if (value.length() > SHARED_LENGTH) {
        return value;
      }
      String known = strings.putIfAbsent(value, value);
      return known == null ? value : known;
    }

    private void anchor(NodeEvent e, YNode node, int weight) {
      e.getAnchor().ifPresent(a -> anchors.put(a.getValue(), new Anchored(node, weight)));
    }

    /**
     * Adds a node to its parent, counting {@code nodes} more towards the document's expanded size; {@code weight} is
     * the number of nodes it stands for once aliases are expanded.
     */
    private void add(YNode node, int nodes, int weight) {
      expanded += nodes;
      if (expanded > limits.maxExpandedNodes()) {
        throw new LimitExceeded("The document expands to more than " + limits.maxExpandedNodes()
            + " nodes through aliases; refused to protect against alias bombs", node.range());
      }
      Frame top = stack.peek();
      if (top == null) {
        root = node;
      } else {
        top.add(node, weight);
      }
    }
  }

  /**
   * An anchored node and the number of nodes it expands to, which an alias to it adds to the document: kept here,
   * for the few nodes with anchors, rather than in every node.
   */
  private record Anchored(YNode node, int weight) {}

  private static final class Frame {
    final CollectionStartEvent event;
    final boolean map;
    final Position start;
    final List<YNode> items = new ArrayList<>();
    int weight = 1;

    Frame(CollectionStartEvent event, boolean map, Position start) {
      this.event = event;
      this.map = map;
      this.start = start;
    }

    void add(YNode node, int nodeWeight) {
      items.add(node);
      weight += nodeWeight;
    }

    private static boolean containsKey(List<YNode> keysAndValues, String key) {
      int hash = key.hashCode();
      for (int i = 0; i < keysAndValues.size(); i += 2) {
        String k = ((YScalar) keysAndValues.get(i)).value();
        if (k.hashCode() == hash && k.equals(key)) {
          return true;
        }
      }
      return false;
    }

    YSeq toSeq(Range range) {
      return new YSeq(range, items);
    }

    YMap toMap(Range range, List<ParseProblem> problems) {
      List<YNode> keysAndValues = new ArrayList<>(items.size());
      Set<String> seen = items.size() > 24 ? new HashSet<>() : null;
      List<YMap> merged = new ArrayList<>();
      for (int i = 0; i + 1 < items.size(); i += 2) {
        YNode k = items.get(i);
        YNode v = items.get(i + 1);
        YScalar key = k instanceof YScalar s ? s
            : new YScalar(k.range(), "<complex key>", YScalar.Type.STRING, true);
        if (!key.quoted() && key.value().length() == 2 && key.value().equals("<<")) {
          if (v instanceof YMap m) {
            merged.add(m);
          } else if (v instanceof YSeq s) {
            s.items().stream().filter(YMap.class::isInstance).map(YMap.class::cast).forEach(merged::add);
          }
          continue;
        }
        if (seen != null ? !seen.add(key.value()) : containsKey(keysAndValues, key.value())) {
          problems.add(new ParseProblem(ParseProblem.Kind.DUPLICATE_KEY, key.range(), "Key \"" + key.value()
              + "\" appears more than once in this mapping; kubectl rejects the file and other tools keep"
              + " only the last value"));
        }
        keysAndValues.add(key);
        keysAndValues.add(v);
      }
      return new YMap(range, keysAndValues, merged);
    }
  }
}
