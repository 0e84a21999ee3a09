package io.hooklens.chart;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What Helm logs while it renders, kept off the process's standard error. Helm logs with Go's log
 * package, which writes to file descriptor 2 itself: helm-java captures only what goes through Go's
 * {@code os.Stderr}, and has no switch for the rest. So descriptor 2 points at a file while Helm renders and
 * is put back afterwards; Helm's lines are taken out of the file, and everything else in it (what the JVM
 * wrote to its standard error meanwhile, from any thread) goes on to standard error as written.
 */
final class HelmLog {
  /**
   * What a call returned, and the messages Helm logged meanwhile.
   *
   * @param messages each message without the date and time Go's log puts before it
   */
  record Logged<T>(T result, List<String> messages) {}

  private static final int STANDARD_ERROR = 2;
  private static final int OWNER_READ_WRITE = 0600;
  /** A line of Go's log package with its standard flags: date and time, then the message. */
  private static final Pattern GO_LOG_LINE = Pattern.compile("\\d{4}/\\d\\d/\\d\\d \\d\\d:\\d\\d:\\d\\d (.*)\\n?");

  private static final Pattern SKIPPED_HOOK = Pattern.compile("info: skipping unknown hook: \"(.*)\"");

  private HelmLog() {}

  /** Runs a call into Helm with its log lines caught. Calls must not overlap: RenderWorker makes one at a time. */
  static <T> Logged<T> around(Supplier<T> call) throws IOException {
    LibC libc = LibC.INSTANCE;
    Path file = Files.createTempFile("hooklens-helm-", ".log");
    // Writers to System.err hold its lock while they write: holding it while descriptor 2 changes, and while
    // what was caught is passed on, keeps their lines whole and in the order written.
    PrintStream err = System.err;
    try {
      int saved;
      synchronized (err) {
        err.flush();
        saved = libc.dup(STANDARD_ERROR);
        int fd = saved < 0 ? -1 : libc.creat(file.toString(), OWNER_READ_WRITE);
        boolean redirected = fd >= 0 && libc.dup2(fd, STANDARD_ERROR) >= 0;
        if (fd >= 0) {
          libc.close(fd);
        }
        if (!redirected && saved >= 0) {
          libc.close(saved);
        }
        // When descriptor 2 cannot be redirected, Helm's lines go where they always went.
        saved = redirected ? saved : -1;
      }
      if (saved < 0) {
        return new Logged<>(call.get(), List.of());
      }
      List<String> messages = new ArrayList<>();
      T result;
      try {
        result = call.get();
      } finally {
        synchronized (err) {
          err.flush();
          libc.dup2(saved, STANDARD_ERROR);
          libc.close(saved);
          messages.addAll(sortOut(Files.readAllBytes(file), err));
        }
      }
      return new Logged<>(result, messages);
    } finally {
      Files.deleteIfExists(file);
    }
  }

  /** Helm's messages among the lines written; the other lines go on to standard error. */
  private static List<String> sortOut(byte[] written, PrintStream err) {
    List<String> messages = new ArrayList<>();
    ByteArrayOutputStream others = new ByteArrayOutputStream();
    int start = 0;
    while (start < written.length) {
      int end = start;
      while (end < written.length && written[end] != '\n') {
        end++;
      }
      end = Math.min(end + 1, written.length);
      Matcher m = GO_LOG_LINE.matcher(new String(written, start, end - start, StandardCharsets.UTF_8));
      if (m.matches()) {
        messages.add(m.group(1));
      } else {
        others.write(written, start, end - start);
      }
      start = end;
    }
    if (others.size() > 0) {
      err.write(others.toByteArray(), 0, others.size());
      err.flush();
    }
    return messages;
  }

  /**
   * The values of Helm's log lines about resources it skips for an unknown hook event. Its other lines are
   * about values and chart layout, not hooks, and are left out.
   */
  static List<String> skippedHooks(List<String> messages) {
    List<String> values = new ArrayList<>();
    for (String m : messages) {
      Matcher skipped = SKIPPED_HOOK.matcher(m);
      if (skipped.matches()) {
        // Go quotes the value: a quote or backslash in it comes escaped.
        values.add(skipped.group(1).replace("\\\"", "\"").replace("\\\\", "\\"));
      }
    }
    return values;
  }

  /** The messages of Go's log lines in text Helm wrote to its standard error, in order. */
  static List<String> messages(String written) {
    List<String> messages = new ArrayList<>();
    for (String line : written.split("\n")) {
      Matcher m = GO_LOG_LINE.matcher(line);
      if (m.matches()) {
        messages.add(m.group(1));
      }
    }
    return messages;
  }
}
