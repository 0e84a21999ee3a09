package io.hooklens.run.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What is kept of a process's output: the tail, with the bytes before it counted. */
class BoundedOutputTest {
  @Test
  void tenMegabytesKeepOnlyTheLastBytesAndCountTheRest() throws IOException {
    byte[] ten = new byte[10 * 1024 * 1024];
    for (int i = 0; i < ten.length; i++) {
      ten[i] = (byte) ('a' + i % 26);
    }
    String end = "the end\n";
    BoundedOutput out = new BoundedOutput();
    out.readAll(new ByteArrayInputStream(ten));
    out.write(end.getBytes(StandardCharsets.UTF_8), 0, end.length());

    BoundedOutput.Tail tail = out.tail();
    assertEquals(BoundedOutput.KEPT_BYTES, tail.text().length());
    assertTrue(tail.text().endsWith("the end\n"), tail.text().substring(tail.text().length() - 20));
    assertEquals(ten.length + end.length() - BoundedOutput.KEPT_BYTES, tail.droppedBytes());
    String expected = new String(ten, ten.length - BoundedOutput.KEPT_BYTES + end.length(),
        BoundedOutput.KEPT_BYTES - end.length(), StandardCharsets.US_ASCII) + end;
    assertEquals(expected, tail.text());
  }

  @Test
  void eachRunsOutputJoinedIsTheTailOfAllTheRunsPrinted() {
    BoundedOutput all = new BoundedOutput();
    List<BoundedOutput.Tail> runs = new ArrayList<>();
    for (int size : new int[] {100_000, 10, 70_000, 5}) {
      long from = all.written();
      byte[] bytes = new byte[size];
      Arrays.fill(bytes, (byte) ('a' + runs.size()));
      all.write(bytes, 0, size);
      runs.add(all.since(from));
      assertEquals(size, runs.get(runs.size() - 1).text().length() + runs.get(runs.size() - 1).droppedBytes());
    }
    assertEquals("d".repeat(5), runs.get(3).text());
    assertEquals(all.tail(), BoundedOutput.join(runs));
  }

  @Test
  void shortOutputIsKeptWholeAcrossWritesThatSplitACharacter() {
    BoundedOutput out = new BoundedOutput();
    byte[] text = "run 1 €\nrun 2\n".getBytes(StandardCharsets.UTF_8);
    out.write(text, 0, 7);
    out.write(text, 7, text.length - 7);
    assertEquals(new BoundedOutput.Tail("run 1 €\nrun 2\n", 0), out.tail());
    assertEquals(new BoundedOutput.Tail("", 0), new BoundedOutput().tail());
  }

  @Test
  void aCharacterCutByTheBoundIsDroppedWhole() {
    byte[] euro = "€".getBytes(StandardCharsets.UTF_8);
    byte[] bytes = new byte[BoundedOutput.KEPT_BYTES + 1];
    Arrays.fill(bytes, (byte) 'x');
    // The euro sign's first byte falls just before the kept bytes, its other two inside them.
    System.arraycopy(euro, 0, bytes, 0, 3);
    BoundedOutput out = new BoundedOutput();
    out.write(bytes, 0, bytes.length);

    BoundedOutput.Tail tail = out.tail();
    assertEquals("x".repeat(BoundedOutput.KEPT_BYTES - 2), tail.text());
    assertEquals(3, tail.droppedBytes());
  }
}
