package io.hooklens.run.kube;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What a process printed, bounded where it is read: the last {@value #KEPT_BYTES} bytes are kept and the bytes
 * before them only counted, so that a hook or container that prints without end cannot grow the runner's memory.
 * One thread may write while others take the tail.
 */
public final class BoundedOutput {
  public static final int KEPT_BYTES = 64 * 1024;

  /** The kept bytes as UTF-8 text, and how many bytes before them were dropped. */
  public record Tail(String text, long droppedBytes) {
    public static final Tail EMPTY = new Tail("", 0);
  }

  private final byte[] ring = new byte[KEPT_BYTES];
  private long written;

  public synchronized void write(byte[] bytes, int offset, int length) {
    int skipped = Math.max(0, length - ring.length);
    written += skipped;
    int from = offset + skipped;
    int count = length - skipped;
    int at = (int) (written % ring.length);
    int first = Math.min(count, ring.length - at);
    System.arraycopy(bytes, from, ring, at, first);
    System.arraycopy(bytes, from + first, ring, 0, count - first);
    written += count;
  }

  /** Reads the stream to its end. */
  public void readAll(InputStream in) throws IOException {
    byte[] buffer = new byte[8192];
    for (int n; (n = in.read(buffer)) >= 0; ) {
      write(buffer, 0, n);
    }
  }

  /**
   * One after another, as if written to one output: the same as the tail of all they are the tails of, since each
   * holds at least the bound's worth of its own end.
   */
  public static Tail join(List<Tail> tails) {
    BoundedOutput all = new BoundedOutput();
    long dropped = 0;
    for (Tail t : tails) {
      byte[] bytes = t.text().getBytes(StandardCharsets.UTF_8);
      all.write(bytes, 0, bytes.length);
      dropped += t.droppedBytes();
    }
    Tail joined = all.tail();
    return new Tail(joined.text(), joined.droppedBytes() + dropped);
  }

  /** How many bytes were written so far: where what is written next begins, for {@link #since(long)}. */
  public synchronized long written() {
    return written;
  }

  public synchronized Tail tail() {
    return since(0);
  }

  /** The kept end of what was written after the first {@code from} bytes, and how much of that was dropped. */
  public synchronized Tail since(long from) {
    long total = Math.max(0, written - from);
    int kept = (int) Math.min(total, ring.length);
    byte[] bytes = new byte[kept];
    int start = (int) ((written - kept) % ring.length);
    int first = Math.min(kept, ring.length - start);
    System.arraycopy(ring, start, bytes, 0, first);
    System.arraycopy(ring, 0, bytes, first, kept - first);
    // The bound may cut a character: its continuation bytes go with the bytes before them.
    int partial = 0;
    while (total > kept && partial < Math.min(3, kept) && (bytes[partial] & 0xC0) == 0x80) {
      partial++;
    }
    return new Tail(new String(bytes, partial, kept - partial, StandardCharsets.UTF_8), total - kept + partial);
  }
}
