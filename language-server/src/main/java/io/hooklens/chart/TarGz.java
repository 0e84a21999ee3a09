package io.hooklens.chart;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * Reads the regular files of a gzipped tar archive, as {@code helm package} and
 * {@code helm dependency build} write them into a chart's {@code charts/} folder (ustar with PAX or GNU
 * long names). Entry paths that leave the archive's root are refused, and so is an archive that
 * unpacks to more than {@link #MAX_BYTES}. Writes such archives too, as Helm loads them.
 */
final class TarGz {
  /** A regular file of the archive, with a relative path that stays inside it. */
  record Entry(String path, byte[] data) {}

  /** Larger than any real chart; a limit against archives that unpack to exhaust memory. */
  static final long MAX_BYTES = 256L * 1024 * 1024;

  private static final int BLOCK = 512;
  private static final byte[] PAX_NAME = "PaxHeader".getBytes(StandardCharsets.US_ASCII);

  private TarGz() {}

  static List<Entry> read(byte[] archive) throws IOException {
    List<Entry> out = new ArrayList<>();
    long total = 0;
    String longName = null;
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(archive))) {
      byte[] header = new byte[BLOCK];
      while (readFully(in, header)) {
        if (isZero(header)) {
          break;
        }
        long size = number(header, 124, 12);
        total += size;
        if (size < 0 || total > MAX_BYTES) {
          throw new IOException("the archive unpacks to more than " + MAX_BYTES / (1024 * 1024) + " MiB");
        }
        byte[] data = new byte[(int) size];
        if (!readFully(in, data)) {
          throw new IOException("the archive ends inside an entry");
        }
        in.skipNBytes((BLOCK - size % BLOCK) % BLOCK);
        char type = (char) header[156];
        switch (type) {
          case 'x' -> longName = paxPath(data);
          case 'L' -> longName = text(data, 0, data.length);
          case '0', '\0' -> {
            String name = longName != null ? longName : name(header);
            longName = null;
            out.add(new Entry(safePath(name), data));
          }
          default -> longName = null;
        }
      }
    }
    return out;
  }

  /**
   * A gzipped ustar archive of regular files, in the given order; a path longer than the header's 100
   * bytes gets a PAX record. The data is stored, not compressed: the archive is read once, right away,
   * and compressing it would cost more time than writing the bytes saves.
   */
  static byte[] write(Map<String, byte[]> files) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(bytes) {
      {
        def.setLevel(Deflater.NO_COMPRESSION);
      }
    }) {
      for (Map.Entry<String, byte[]> f : files.entrySet()) {
        byte[] name = f.getKey().getBytes(StandardCharsets.UTF_8);
        if (name.length > 100) {
          byte[] pax = paxRecord("path", f.getKey());
          gz.write(header(PAX_NAME, pax.length, 'x'));
          writePadded(gz, pax);
          name = Arrays.copyOf(name, 100);
        }
        gz.write(header(name, f.getValue().length, '0'));
        writePadded(gz, f.getValue());
      }
      gz.write(new byte[2 * BLOCK]);
    }
    return bytes.toByteArray();
  }

  /** "LEN key=value\n", LEN in bytes and counting its own digits. */
  private static byte[] paxRecord(String key, String value) {
    int body = (" " + key + "=" + value + "\n").getBytes(StandardCharsets.UTF_8).length;
    int digits = 1;
    while (String.valueOf(body + digits).length() != digits) {
      digits++;
    }
    return ((body + digits) + " " + key + "=" + value + "\n").getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] header(byte[] name, long size, char type) {
    byte[] h = new byte[BLOCK];
    System.arraycopy(name, 0, h, 0, Math.min(name.length, 100));
    put(h, 100, "0000644");
    put(h, 108, "0000000");
    put(h, 116, "0000000");
    put(h, 124, String.format("%011o", size));
    put(h, 136, "00000000000");
    h[156] = (byte) type;
    put(h, 257, "ustar");
    put(h, 263, "00");
    put(h, 148, "        ");
    int sum = 0;
    for (byte b : h) {
      sum += b & 0xff;
    }
    put(h, 148, String.format("%06o", sum));
    return h;
  }

  private static void put(byte[] h, int off, String ascii) {
    byte[] b = ascii.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(b, 0, h, off, b.length);
  }

  private static void writePadded(OutputStream out, byte[] data) throws IOException {
    out.write(data);
    out.write(new byte[(BLOCK - data.length % BLOCK) % BLOCK]);
  }

  private static String name(byte[] h) {
    String name = text(h, 0, 100);
    boolean ustar = text(h, 257, 5).equals("ustar");
    String prefix = ustar ? text(h, 345, 155) : "";
    return prefix.isEmpty() ? name : prefix + "/" + name;
  }

  /** The {@code path} record of a PAX header ("LEN path=VALUE\n" records, LEN in bytes), or null. */
  private static String paxPath(byte[] data) {
    int i = 0;
    while (i < data.length) {
      int space = i;
      while (space < data.length && data[space] != ' ') {
        space++;
      }
      int len;
      try {
        len = Integer.parseInt(new String(data, i, space - i, StandardCharsets.US_ASCII));
      } catch (NumberFormatException e) {
        return null;
      }
      if (len <= space - i || i + len > data.length) {
        return null;
      }
      String record = new String(data, space + 1, i + len - space - 1, StandardCharsets.UTF_8).stripTrailing();
      if (record.startsWith("path=")) {
        return record.substring("path=".length());
      }
      i += len;
    }
    return null;
  }

  private static String safePath(String name) throws IOException {
    String p = name.replace('\\', '/');
    while (p.startsWith("./")) {
      p = p.substring(2);
    }
    if (p.isEmpty() || p.startsWith("/")) {
      throw new IOException("the archive has an entry outside it: " + name);
    }
    for (String part : p.split("/")) {
      if (part.equals("..")) {
        throw new IOException("the archive has an entry outside it: " + name);
      }
    }
    return p;
  }

  /** An octal field, or a base-256 one (high bit set) as GNU tar writes large sizes. */
  private static long number(byte[] h, int off, int len) throws IOException {
    if ((h[off] & 0x80) != 0) {
      long v = h[off] & 0x7f;
      for (int i = 1; i < len; i++) {
        v = (v << 8) | (h[off + i] & 0xff);
      }
      return v;
    }
    String s = text(h, off, len).trim();
    try {
      return s.isEmpty() ? 0 : Long.parseLong(s, 8);
    } catch (NumberFormatException e) {
      throw new IOException("the archive has a malformed header");
    }
  }

  private static String text(byte[] b, int off, int len) {
    int end = off;
    while (end < off + len && b[end] != 0) {
      end++;
    }
    return new String(b, off, end - off, StandardCharsets.UTF_8);
  }

  private static boolean isZero(byte[] b) {
    for (byte x : b) {
      if (x != 0) {
        return false;
      }
    }
    return true;
  }

  private static boolean readFully(InputStream in, byte[] buf) throws IOException {
    return in.readNBytes(buf, 0, buf.length) == buf.length;
  }
}
