package io.hooklens.chart;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

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

  private TarGz() {}

  static List<Entry> read(byte[] archive) throws IOException {
    List<Entry> out = new ArrayList<>();
    long total = 0;
    try (TarArchiveInputStream tar = new TarArchiveInputStream(new GZIPInputStream(new ByteArrayInputStream(archive)))) {
      TarArchiveEntry e;
      while ((e = nextEntry(tar)) != null) {
        if (!e.isFile()) {
          continue;
        }
        long size = e.getSize();
        total += size;
        if (size < 0 || total > MAX_BYTES) {
          throw new IOException("the archive unpacks to more than " + MAX_BYTES / (1024 * 1024) + " MiB");
        }
        String path = safePath(e.getName());
        byte[] data = tar.readNBytes((int) size);
        if (data.length != size) {
          throw new IOException("the archive ends inside an entry");
        }
        out.add(new Entry(path, data));
      }
    }
    return out;
  }

  /** commons-compress reports a malformed header as an unchecked exception; callers expect an I/O error. */
  private static TarArchiveEntry nextEntry(TarArchiveInputStream tar) throws IOException {
    try {
      return tar.getNextEntry();
    } catch (IllegalArgumentException e) {
      throw new IOException("the archive has a malformed header", e);
    }
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
        };
        TarArchiveOutputStream tar = new TarArchiveOutputStream(gz, "UTF-8")) {
      tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
      for (Map.Entry<String, byte[]> f : files.entrySet()) {
        TarArchiveEntry entry = new TarArchiveEntry(f.getKey());
        entry.setSize(f.getValue().length);
        entry.setMode(0644);
        tar.putArchiveEntry(entry);
        tar.write(f.getValue());
        tar.closeArchiveEntry();
      }
      tar.finish();
    }
    return bytes.toByteArray();
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
}
