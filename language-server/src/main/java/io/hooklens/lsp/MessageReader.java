package io.hooklens.lsp;

import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.lsp4j.jsonrpc.JsonRpcException;
import org.eclipse.lsp4j.jsonrpc.MessageConsumer;
import org.eclipse.lsp4j.jsonrpc.MessageIssueException;
import org.eclipse.lsp4j.jsonrpc.MessageIssueHandler;
import org.eclipse.lsp4j.jsonrpc.MessageProducer;
import org.eclipse.lsp4j.jsonrpc.json.MessageJsonHandler;
import org.eclipse.lsp4j.jsonrpc.messages.Message;
import org.eclipse.lsp4j.jsonrpc.messages.MessageIssue;
import org.eclipse.lsp4j.jsonrpc.messages.NotificationMessage;
import org.eclipse.lsp4j.jsonrpc.messages.RequestMessage;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;

/**
 * Reads the client's messages as the base protocol frames them ({@code Content-Length} and {@code Content-Type}
 * headers, a blank line, a JSON body), and finds its feet again at once after a frame whose header is wrong.
 *
 * <p>lsp4j's reader takes exactly {@code Content-Length} bytes: when the header says too much it eats the start of
 * the next message and waits for bytes that belong to the one after; when it says too little it reads the rest
 * of the body as headers. Either way the messages that follow are lost until the bytes happen to line up again,
 * which stalls an editor for many seconds. This reader also follows the JSON structure of the body, which says
 * where the message really ends:
 * <ul>
 *   <li>A body whose JSON value ends exactly at its declared length (blanks may pad it) is a message.
 *   <li>A value that ends before the declared length, followed by anything but blanks: the header said too much.
 *       The next message starts right after the value. When nothing follows for a moment, the message is not
 *       waited on either.
 *   <li>A value still open at the declared length: the header said too little, and the value's end, or the next
 *       header met outside a string, or a line break inside one, is where the next message starts.
 *   <li>A body that is not a JSON object or array is skipped to its declared end, or to a header met sooner.
 *   <li>Without a usable {@code Content-Length}, the body ends where its value does.
 *   <li>Text that is not a header where one is due is skipped up to the next {@code Content-Length:} or
 *       {@code Content-Type:}.
 * </ul>
 * A message whose frame was wrong is refused, never run: a request gets a parse error with its id (or id null,
 * as JSON-RPC says, when none can be read), a notification is logged. A message whose JSON does not match its
 * method's parameters gets an invalid-params error. No error sent to the client holds Java class names or stack
 * traces: those go to the server log.
 */
final class MessageReader implements MessageProducer, Closeable {
  private static final Logger LOG = Logger.getLogger("io.hooklens.lsp");
  private static final String CONTENT_LENGTH = "content-length";
  private static final String CONTENT_TYPE = "content-type";
  private static final byte[][] HEADER_STARTS = {
      (CONTENT_LENGTH + ":").getBytes(StandardCharsets.US_ASCII),
      (CONTENT_TYPE + ":").getBytes(StandardCharsets.US_ASCII)};
  private static final int LONGEST_START = Math.max(HEADER_STARTS[0].length, HEADER_STARTS[1].length);
  private static final int MAX_HEADER_LINE = 8 * 1024;
  private static final int MAX_HEADERS = 32;
  /** Larger messages are refused: the largest file the engine reads, JSON-escaped, fits well below. */
  static final int MAX_MESSAGE_BYTES = 256 * 1024 * 1024;
  /**
   * How long the rest of a message whose value ended before its declared length may take to arrive, before the
   * message is refused: a client that pads its bodies sends the padding with them.
   */
  private static final long PADDING_WAIT_MS = 100;

  private final Input in;
  private final MessageJsonHandler json;
  private final MessageIssueHandler issues;
  private volatile boolean running;

  /**
   * @param issues answers requests that cannot be run (lsp4j's remote endpoint)
   */
  MessageReader(InputStream in, MessageJsonHandler json, MessageIssueHandler issues) {
    this.in = new Input(in);
    this.json = json;
    this.issues = issues;
  }

  @Override
  public void listen(MessageConsumer callback) {
    running = true;
    try {
      while (running) {
        Frame frame = next();
        if (frame == null) {
          return;
        }
        deliver(frame, callback);
      }
    } catch (IOException e) {
      // Stopped on purpose (the connection is being closed, the reading thread interrupted), or the stream closed.
      if (running && !Thread.currentThread().isInterrupted() && !JsonRpcException.indicatesStreamClosed(e)) {
        throw new JsonRpcException(e);
      }
    } finally {
      running = false;
    }
  }

  @Override
  public void close() {
    running = false;
  }

  // ---- Frames ----

  /**
   * A message's body as read.
   *
   * @param problem why the frame is refused, or null
   */
  private record Frame(byte[] bytes, int size, Charset charset, String problem) {
    String text() {
      return new String(bytes, 0, size, charset);
    }
  }

  /** The headers of a message: its declared length (-1: none usable) and why it has none. */
  private record Headers(long length, String noLength, Charset charset, String badCharset) {}

  /** The next message, or null at the end of the input. */
  private Frame next() throws IOException {
    Headers h = headers();
    return h == null ? null : body(h);
  }

  private Headers headers() throws IOException {
    while (true) {
      int c;
      do {
        c = in.read();
      } while (c >= 0 && isBlank(c));
      if (c < 0) {
        return null;
      }
      in.unread(c);
      long length = -1;
      String noLength = "it has no Content-Length header";
      Charset charset = StandardCharsets.UTF_8;
      String badCharset = null;
      boolean junk = false;
      for (int count = 0; ; count++) {
        Line line = line();
        if (line == null) {
          return null;
        }
        if (line.length() == 0 && !line.cut()) {
          break;
        }
        int colon = line.cut() || count >= MAX_HEADERS ? -1 : headerName(line.bytes());
        if (colon < 0) {
          // Not a header: the end of a message read wrongly, or noise. What follows the first byte may still
          // hold the next header.
          in.unread(line.bytes(), 1, line.bytes().length - 1);
          long skipped = skipToHeader(-1, null);
          LOG.warning("skipped " + (skipped < 0 ? "the rest of the input" : (skipped + 1) + " bytes")
              + " where a message header was due");
          junk = true;
          break;
        }
        String name = new String(line.bytes(), 0, colon, StandardCharsets.US_ASCII).trim().toLowerCase(Locale.ROOT);
        String value = new String(line.bytes(), colon + 1, line.bytes().length - colon - 1,
            StandardCharsets.US_ASCII).trim();
        if (name.equals(CONTENT_LENGTH)) {
          length = byteCount(value);
          noLength = length < 0 ? "its Content-Length '" + shorten(value) + "' is not a byte count" : null;
        } else if (name.equals(CONTENT_TYPE)) {
          int at = value.toLowerCase(Locale.ROOT).indexOf("charset=");
          if (at >= 0) {
            String name2 = value.substring(at + "charset=".length()).split(";", 2)[0].trim().replace("\"", "");
            try {
              charset = Charset.forName(name2);
              badCharset = null;
            } catch (IllegalArgumentException e) {
              badCharset = "its charset '" + shorten(name2) + "' is not supported";
            }
          }
        }
      }
      if (!junk) {
        return new Headers(length, noLength, charset, badCharset);
      }
    }
  }

  /** The index of the colon after a header name (a token, as HTTP has it), or -1. */
  private static int headerName(byte[] line) {
    int i = 0;
    while (i < line.length && isTokenChar(line[i])) {
      i++;
    }
    return i > 0 && i < line.length && line[i] == ':' ? i : -1;
  }

  private static boolean isTokenChar(byte b) {
    return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || "!#$%&'*+-.^_`|~".indexOf(b) >= 0;
  }

  private static long byteCount(String value) {
    if (value.isEmpty() || value.length() > 10) {
      return -1;
    }
    for (int i = 0; i < value.length(); i++) {
      if (value.charAt(i) < '0' || value.charAt(i) > '9') {
        return -1;
      }
    }
    long n = Long.parseLong(value);
    return n > Integer.MAX_VALUE ? -1 : n;
  }

  /** A header line without its line break; {@code cut} when it was longer than a header line may be. */
  private record Line(byte[] bytes, boolean cut) {
    int length() {
      return bytes.length;
    }
  }

  private Line line() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    while (true) {
      int c = in.read();
      if (c < 0) {
        return out.size() == 0 ? null : new Line(out.toByteArray(), false);
      }
      if (c == '\n') {
        byte[] b = out.toByteArray();
        int n = b.length > 0 && b[b.length - 1] == '\r' ? b.length - 1 : b.length;
        return new Line(Arrays.copyOf(b, n), false);
      }
      out.write(c);
      if (out.size() > MAX_HEADER_LINE) {
        return new Line(out.toByteArray(), true);
      }
    }
  }

  private Frame body(Headers h) throws IOException {
    if (!asciiCompatible(h.charset()) && h.length() >= 0) {
      // UTF-16 and the like: a byte of a character may look like a bracket, so the length alone is trusted.
      byte[] b = new byte[(int) Math.min(h.length(), MAX_MESSAGE_BYTES)];
      for (int i = 0; i < b.length; i++) {
        int c = in.read();
        if (c < 0) {
          return null;
        }
        b[i] = (byte) c;
      }
      return new Frame(b, b.length, h.charset(),
          h.length() > MAX_MESSAGE_BYTES ? "it is too large" : h.badCharset());
    }
    Body out = new Body((int) Math.min(Math.max(h.length(), 1024), 8 * 1024 * 1024));
    JsonScan scan = new JsonScan();
    long declared = h.length();
    int state = JsonScan.MORE;
    long n = 0;
    // Within the declared length, or without one until the value ends.
    while (declared < 0 || n < declared) {
      if (scan.inPlainString()) {
        // Most of a large message is the text of a string: taken in runs, not byte by byte.
        n += in.stringRun(out, declared < 0 ? Long.MAX_VALUE : declared - n);
        if (declared >= 0 && n >= declared) {
          break;
        }
      }
      int c = in.read();
      if (c < 0) {
        return null;
      }
      n++;
      out.write(c);
      state = scan.feed(c, false);
      if (state != JsonScan.MORE) {
        break;
      }
      // Outside a string, a header is never JSON: the body was cut short and the next message starts here.
      if (c == ':' && !scan.inString() && out.endsWithHeader() > 0) {
        return cutAtHeader(out, h, "its body ends before its JSON value does");
      }
      if (out.tooLarge()) {
        return refuseTooLarge(out, h);
      }
    }
    if (state == JsonScan.DONE) {
      if (h.length() < 0) {
        return frame(out, h, h.noLength());
      }
      if (n < declared) {
        // Blanks may pad a body; anything else is the next message.
        while (n < declared) {
          int c = in.readSoon(PADDING_WAIT_MS);
          if (c == Input.NOTHING_YET) {
            return frame(out, h, "its Content-Length is " + declared + " but its JSON value ends after " + n
                + " bytes and nothing follows");
          }
          if (c < 0) {
            return null;
          }
          if (!isBlank(c)) {
            in.unread(c);
            return frame(out, h, "its Content-Length is " + declared + " but its JSON value ends after " + n
                + " bytes");
          }
          n++;
        }
      }
      return frame(out, h, null);
    }
    if (state == JsonScan.WRONG) {
      // Not JSON: skipped to its declared end, or to a header met sooner. The byte that broke it may start one.
      in.unread(out.removeLast());
      long rest = declared < 0 ? -1 : declared - n + 1;
      skipToHeader(rest, out);
      return frame(out, h, "its body is not a JSON object");
    }
    // The declared length ended inside the value: it is too small, or the body was cut short.
    int overrun = out.size();
    while (true) {
      int c = in.read();
      if (c < 0) {
        return null;
      }
      out.write(c);
      state = scan.feed(c, true);
      if (state == JsonScan.DONE) {
        return frame(out, h, "its Content-Length is " + declared + " but its JSON value takes " + out.size()
            + " bytes");
      }
      if (state == JsonScan.WRONG) {
        // A line break inside a string: the next header, if any, started inside the string.
        int at = out.indexOfHeader(overrun);
        if (at >= 0) {
          in.unread(out.cut(at));
        } else {
          in.unread(out.removeLast());
          skipToHeader(-1, out);
        }
        return frame(out, h, "its body ends before its JSON value does");
      }
      if (c == ':' && !scan.inString() && out.endsWithHeader() > 0) {
        return cutAtHeader(out, h, "its body ends before its JSON value does");
      }
      if (out.tooLarge()) {
        return refuseTooLarge(out, h);
      }
    }
  }

  /** The body ended where a header was just read: the header goes back to be read as one. */
  private Frame cutAtHeader(Body out, Headers h, String problem) {
    in.unread(out.cut(out.size() - out.endsWithHeader()));
    return frame(out, h, problem);
  }

  private Frame refuseTooLarge(Body out, Headers h) throws IOException {
    skipToHeader(-1, null);
    return frame(out, h, "it is larger than " + MAX_MESSAGE_BYTES / (1024 * 1024) + " MiB");
  }

  private static Frame frame(Body out, Headers h, String problem) {
    String why = problem != null ? problem : h.badCharset();
    return new Frame(out.array(), out.size(), h.charset(), why);
  }

  /**
   * Skips bytes up to the next {@code Content-Length:} or {@code Content-Type:} (in any case), which is left to be
   * read.
   *
   * @param limit skip at most this many bytes (-1: no limit)
   * @param kept where the skipped bytes go, or null
   * @return how many bytes were skipped, or -1 at the end of the input
   */
  private long skipToHeader(long limit, Body kept) throws IOException {
    HeaderWatch watch = new HeaderWatch();
    long skipped = 0;
    while (limit < 0 || skipped < limit) {
      int c = in.read();
      if (c < 0) {
        return -1;
      }
      skipped++;
      if (kept != null) {
        kept.write(c);
      }
      if (watch.sees(c, false)) {
        int m = watch.matched();
        if (kept != null) {
          kept.cut(kept.size() - m);
        }
        in.unread(watch.last(m));
        return skipped - m;
      }
    }
    return skipped;
  }

  // ---- Delivery ----

  private void deliver(Frame frame, MessageConsumer callback) {
    if (frame.problem() != null) {
      refuse(frame);
      return;
    }
    String text = frame.text();
    Message message;
    try {
      message = json.parseMessage(text);
    } catch (MessageIssueException e) {
      answer(e.getRpcMessage(), issue(e, text));
      return;
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "a message could not be parsed", e);
      answer(null, new MessageIssue("Parse error: the message is not a JSON-RPC message (" + describe(e) + ")",
          ResponseErrorCode.ParseError.getValue()));
      return;
    }
    if (message == null) {
      answer(null, new MessageIssue("Parse error: the message is empty", ResponseErrorCode.ParseError.getValue()));
      return;
    }
    try {
      callback.consume(message);
    } catch (MessageIssueException e) {
      answer(e.getRpcMessage(), issue(e, text));
    } catch (RuntimeException e) {
      // A consumer's failure must not end the connection: the next message is read as usual.
      LOG.log(Level.SEVERE, "a message could not be handled", e);
    }
  }

  /** A message whose frame was wrong: refused, with its id when it has one. */
  private void refuse(Frame frame) {
    Message m = null;
    try {
      m = json.parseMessage(frame.text());
    } catch (MessageIssueException e) {
      m = e.getRpcMessage();
    } catch (RuntimeException e) {
      // No id to answer with.
    }
    String what = m instanceof RequestMessage r ? "a " + r.getMethod() + " request"
        : m instanceof NotificationMessage n ? "a " + n.getMethod() + " notification" : "a message";
    LOG.warning("refused " + what + " (" + frame.size() + " bytes read): " + frame.problem());
    if (m instanceof NotificationMessage || (m != null && !(m instanceof RequestMessage))) {
      return;
    }
    answer(m, new MessageIssue("Parse error: the message was not read, as " + frame.problem()
        + "; messages must be framed by a Content-Length header that counts the bytes of their JSON body",
        ResponseErrorCode.ParseError.getValue()));
  }

  /**
   * Answers a request that cannot be run; a request whose id is unknown is answered with id null, and
   * notifications and responses only logged.
   */
  private void answer(Message m, MessageIssue issue) {
    if (m == null) {
      m = new RequestMessage();
    } else if (!(m instanceof RequestMessage)) {
      LOG.warning("ignored a message: " + issue.getText());
      return;
    }
    try {
      issues.handle(m, List.of(issue));
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "cannot answer a message that was not read", e);
    }
  }

  /**
   * lsp4j's issue, without its exception: JSON that reads but does not match the method's parameters is a matter
   * of invalid params, named; broken JSON a parse error.
   */
  private static MessageIssue issue(MessageIssueException e, String text) {
    MessageIssue first = e.getIssues().get(0);
    Throwable cause = first.getCause();
    LOG.log(Level.WARNING, "a message could not be read: " + first.getText(), cause);
    String method = e.getRpcMessage() instanceof RequestMessage r ? r.getMethod()
        : e.getRpcMessage() instanceof NotificationMessage n ? n.getMethod() : null;
    String detail = cause == null ? first.getText() : describe(cause);
    if (method != null && first.getIssueCode() == ResponseErrorCode.ParseError.getValue() && isJson(text)) {
      return new MessageIssue("Invalid params for " + method + ": " + detail,
          ResponseErrorCode.InvalidParams.getValue());
    }
    return new MessageIssue(first.getIssueCode() == ResponseErrorCode.ParseError.getValue()
        ? "Parse error: " + detail : detail, first.getIssueCode());
  }

  private static boolean isJson(String text) {
    try {
      JsonParser.parseString(text);
      return true;
    } catch (JsonParseException e) {
      return false;
    }
  }

  /** What an exception says, without Java's names for things: its first line, less exception class prefixes. */
  static String describe(Throwable t) {
    String m = null;
    for (Throwable x = t; x != null && m == null; x = x.getCause()) {
      m = x.getMessage();
    }
    if (m == null) {
      return "unreadable";
    }
    int nl = m.indexOf('\n');
    m = shorten(nl >= 0 ? m.substring(0, nl) : m);
    // "java.lang.IllegalStateException: Expected ..." reads "Expected ...".
    while (true) {
      int colon = m.indexOf(": ");
      if (colon <= 0 || !isQualifiedName(m.substring(0, colon))) {
        return m;
      }
      m = m.substring(colon + 2);
    }
  }

  private static boolean isQualifiedName(String s) {
    if (!s.contains(".") || s.startsWith(".") || s.endsWith(".")) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!(Character.isJavaIdentifierPart(c) || c == '.')) {
        return false;
      }
    }
    return true;
  }

  private static String shorten(String s) {
    return s.length() <= 200 ? s : s.substring(0, 199) + "…";
  }

  /** Whether a charset writes ASCII as ASCII, one byte each, as UTF-8 does: JSON's structure shows in the bytes. */
  private static boolean asciiCompatible(Charset charset) {
    String probe = "{}[]\"\\: \r\nContent-Length";
    try {
      return Arrays.equals(probe.getBytes(charset), probe.getBytes(StandardCharsets.US_ASCII));
    } catch (UnsupportedOperationException e) {
      return false;
    }
  }

  private static boolean isBlank(int c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
  }

  // ---- Reading ----

  /**
   * Follows the structure of a JSON text byte by byte (UTF-8 keeps every byte of a multi-byte character above
   * 0x7F): where its object or array ends, and whether it cannot be JSON. Literals are not checked: the JSON
   * reader does that.
   */
  private static final class JsonScan {
    static final int MORE = 0;
    static final int DONE = 1;
    static final int WRONG = 2;

    private byte[] open = new byte[16];
    private int depth;
    private boolean started;
    private boolean string;
    private boolean escaped;

    boolean inString() {
      return string;
    }

    /** Inside a string, and not just after a backslash. */
    boolean inPlainString() {
      return string && !escaped;
    }

    /**
     * @param noLineBreaksInStrings a line break inside a string means the text is cut there (the JSON reader
     *     takes raw line breaks inside a string within a frame, so they count as wrong only past one)
     */
    int feed(int c, boolean noLineBreaksInStrings) {
      if (!started) {
        if (isBlank(c)) {
          return MORE;
        }
        if (c != '{' && c != '[') {
          return WRONG;
        }
        started = true;
        push(c);
        return MORE;
      }
      if (string) {
        if (escaped) {
          escaped = false;
        } else if (c == '\\') {
          escaped = true;
        } else if (c == '"') {
          string = false;
        } else if (noLineBreaksInStrings && (c == '\n' || c == '\r')) {
          return WRONG;
        }
        return MORE;
      }
      switch (c) {
        case '"' -> string = true;
        case '{', '[' -> push(c);
        case '}', ']' -> {
          if (open[depth - 1] != (c == '}' ? '{' : '[')) {
            return WRONG;
          }
          depth--;
          return depth == 0 ? DONE : MORE;
        }
        default -> { }
      }
      return MORE;
    }

    private void push(int c) {
      if (depth == open.length) {
        open = Arrays.copyOf(open, depth * 2);
      }
      open[depth++] = (byte) c;
    }
  }

  /** Sees {@code Content-Length:} or {@code Content-Type:} (in any case) as the last bytes read. */
  private static final class HeaderWatch {
    private final byte[] ring = new byte[LONGEST_START];
    private long count;
    private int matched;

    /** Takes one more byte; true when it ends a header start and {@code ignore} is false. */
    boolean sees(int c, boolean ignore) {
      ring[(int) (count++ % ring.length)] = (byte) c;
      if (ignore || c != ':') {
        return false;
      }
      for (byte[] start : HEADER_STARTS) {
        if (count >= start.length && matches(last(start.length), 0, start, start.length)) {
          matched = start.length;
          return true;
        }
      }
      return false;
    }

    int matched() {
      return matched;
    }

    /** The last {@code n} bytes read, oldest first. */
    byte[] last(int n) {
      byte[] out = new byte[n];
      for (int i = 0; i < n; i++) {
        out[i] = ring[(int) ((count - n + i) % ring.length)];
      }
      return out;
    }
  }

  /** Whether {@code b}, up to {@code end}, holds a header start (in any case) at {@code at}. */
  private static boolean matches(byte[] b, int at, byte[] start, int end) {
    if (at < 0 || at + start.length > end) {
      return false;
    }
    for (int i = 0; i < start.length; i++) {
      int x = b[at + i] & 0xff;
      if ((x >= 'A' && x <= 'Z' ? x + ('a' - 'A') : x) != start[i]) {
        return false;
      }
    }
    return true;
  }

  /** The bytes of a body, kept to parse it, or to read the id of a refused one. */
  private static final class Body {
    private byte[] bytes;
    private int size;

    Body(int capacity) {
      bytes = new byte[capacity];
    }

    void write(int c) {
      if (size == bytes.length) {
        bytes = Arrays.copyOf(bytes, bytes.length * 2);
      }
      bytes[size++] = (byte) c;
    }

    void write(byte[] b, int off, int len) {
      if (size + len > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + len));
      }
      System.arraycopy(b, off, bytes, size, len);
      size += len;
    }

    int size() {
      return size;
    }

    boolean tooLarge() {
      return size > MAX_MESSAGE_BYTES;
    }

    int removeLast() {
      return bytes[--size] & 0xff;
    }

    /** Drops the bytes from {@code at} on, and returns them. */
    byte[] cut(int at) {
      byte[] tail = Arrays.copyOfRange(bytes, at, size);
      size = at;
      return tail;
    }

    /** The length of the header start the bytes end with, or 0. */
    int endsWithHeader() {
      for (byte[] start : HEADER_STARTS) {
        if (size >= start.length && matches(bytes, size - start.length, start, size)) {
          return start.length;
        }
      }
      return 0;
    }

    /** Where the first header start at or after {@code from} is, or -1. */
    int indexOfHeader(int from) {
      for (int i = from; i < size; i++) {
        for (byte[] start : HEADER_STARTS) {
          if (matches(bytes, i, start, size)) {
            return i;
          }
        }
      }
      return -1;
    }

    /** The bytes, up to {@link #size()}. */
    byte[] array() {
      return bytes;
    }
  }

  /** The input, buffered, with bytes put back to be read again. */
  private static final class Input {
    static final int NOTHING_YET = -2;

    private final InputStream in;
    private final byte[] buffer = new byte[8192];
    private int pos;
    private int limit;
    private byte[] back = new byte[0];
    private int backPos;

    Input(InputStream in) {
      this.in = in;
    }

    /** The next byte, or -1 at the end. */
    int read() throws IOException {
      if (backPos < back.length) {
        return back[backPos++] & 0xff;
      }
      while (pos == limit) {
        int n = in.read(buffer, 0, buffer.length);
        if (n < 0) {
          return -1;
        }
        pos = 0;
        limit = n;
      }
      return buffer[pos++] & 0xff;
    }

    /**
     * Moves the buffered bytes up to the next quote or backslash (at most {@code max}) to {@code out}: the inside
     * of a JSON string, which needs no scan. Returns how many.
     */
    int stringRun(Body out, long max) {
      if (backPos < back.length) {
        return 0;
      }
      int end = (int) Math.min(limit, pos + Math.min(max, Integer.MAX_VALUE));
      int i = pos;
      while (i < end && buffer[i] != '"' && buffer[i] != '\\') {
        i++;
      }
      int n = i - pos;
      out.write(buffer, pos, n);
      pos = i;
      return n;
    }

    /** The next byte if it arrives within {@code ms}, else {@link #NOTHING_YET}; -1 at the end. */
    int readSoon(long ms) throws IOException {
      long deadline = System.nanoTime() + ms * 1_000_000;
      while (backPos >= back.length && pos == limit && in.available() <= 0) {
        if (System.nanoTime() >= deadline) {
          return NOTHING_YET;
        }
        try {
          Thread.sleep(5);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new InterruptedIOException("interrupted");
        }
      }
      return read();
    }

    void unread(int c) {
      unread(new byte[] {(byte) c}, 0, 1);
    }

    void unread(byte[] b) {
      unread(b, 0, b.length);
    }

    void unread(byte[] b, int off, int len) {
      if (len <= 0) {
        return;
      }
      byte[] joined = new byte[len + back.length - backPos];
      System.arraycopy(b, off, joined, 0, len);
      System.arraycopy(back, backPos, joined, len, back.length - backPos);
      back = joined;
      backPos = 0;
    }
  }
}
