package io.hooklens.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

class TarGzTest {
  @Test
  void regularFilesAreReadWithUstarAndPaxNames() throws IOException {
    String longDir = "chart/templates/" + "nested/".repeat(20);
    Map<String, String> files = new LinkedHashMap<>();
    files.put("chart/Chart.yaml", "name: chart\n");
    files.put(longDir + "job.yaml", "kind: Job\n");
    List<TarGz.Entry> entries = TarGz.read(tarGz(files));
    assertEquals(2, entries.size());
    assertEquals("chart/Chart.yaml", entries.get(0).path());
    assertEquals(longDir + "job.yaml", entries.get(1).path());
    assertEquals("kind: Job\n", new String(entries.get(1).data(), StandardCharsets.UTF_8));
  }

  @Test
  void writtenArchivesReadBackWithLongAndNonAsciiNames() throws IOException {
    Map<String, byte[]> files = new LinkedHashMap<>();
    files.put("chart/Chart.yaml", "name: chart\n".getBytes(StandardCharsets.UTF_8));
    files.put("chart/templates/" + "verschachtelt-ü/".repeat(8) + "job.yaml", new byte[1000]);
    files.put("chart/empty.txt", new byte[0]);
    List<TarGz.Entry> entries = TarGz.read(TarGz.write(files));
    assertEquals(List.copyOf(files.keySet()), entries.stream().map(TarGz.Entry::path).toList());
    assertEquals(1000, entries.get(1).data().length);
    assertEquals(0, entries.get(2).data().length);
  }

  @Test
  void entriesOutsideTheArchiveAreRefused() throws IOException {
    byte[] archive = tarGz(Map.of("chart/../../etc/passwd", "x"));
    IOException e = assertThrows(IOException.class, () -> TarGz.read(archive));
    assertTrue(e.getMessage().contains("outside"), e.getMessage());
  }

  @Test
  void garbageIsAnIoErrorNotACrash() {
    assertThrows(IOException.class, () -> TarGz.read("not gzip".getBytes(StandardCharsets.UTF_8)));
  }

  /** A gzipped ustar archive; names over 100 bytes get a PAX header, as Go's archive/tar writes. */
  static byte[] tarGz(Map<String, String> files) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
      for (Map.Entry<String, String> f : files.entrySet()) {
        byte[] data = f.getValue().getBytes(StandardCharsets.UTF_8);
        String name = f.getKey();
        if (name.length() > 100) {
          byte[] pax = paxRecord("path", name).getBytes(StandardCharsets.UTF_8);
          gz.write(header("PaxHeaders/x", pax.length, 'x'));
          gz.write(pad(pax));
          name = name.substring(name.length() - 90);
        }
        gz.write(header(name, data.length, '0'));
        gz.write(pad(data));
      }
      gz.write(new byte[1024]);
    }
    return bytes.toByteArray();
  }

  /** "LEN key=value\n", where LEN counts the whole record, its own digits included. */
  private static String paxRecord(String key, String value) {
    String body = " " + key + "=" + value + "\n";
    int digits = 1;
    while (String.valueOf(body.length() + digits).length() != digits) {
      digits++;
    }
    return (body.length() + digits) + body;
  }

  private static byte[] header(String name, int size, char type) {
    byte[] h = new byte[512];
    put(h, 0, name);
    put(h, 100, "0000644");
    put(h, 124, String.format("%011o", size));
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

  private static void put(byte[] h, int off, String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    System.arraycopy(b, 0, h, off, b.length);
  }

  private static byte[] pad(byte[] data) {
    byte[] out = new byte[(data.length + 511) / 512 * 512];
    System.arraycopy(data, 0, out, 0, data.length);
    return out;
  }
}
