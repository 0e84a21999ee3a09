package io.hooklens.chart;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What the parent and the render worker say to each other over the worker's standard input and output:
 * length-prefixed frames of UTF-8 text. The worker says {@link #READY} once Helm is loaded, then answers each
 * request with one response.
 */
final class RenderProtocol {
  /**
   * One {@code helm template} of a chart copy.
   *
   * @param chart the copy's root, an archive or a folder
   * @param valuesFiles values files on top of the chart's values.yaml, in order
   * @param set the {@code --set} pairs as one argument, or empty
   * @param setFiles the {@code --set-file} pairs as one argument, or empty
   * @param emptyFile an empty file of the copy, the value of the empty key after {@code setFiles}; or empty
   * @param kubeVersion {@code .Capabilities.KubeVersion}, such as {@code v1.34.0}
   * @param maxOutputBytes the most manifests, in UTF-8 bytes, the worker sends back
   * @param release the release name, {@code .Release.Name}
   * @param namespace the release namespace, {@code .Release.Namespace}
   * @param buildDependencies not a render: {@code helm dependency build} in the chart folder, answered with empty
   *     manifests or Helm's error
   */
  record Request(String chart, List<String> valuesFiles, String set, String setFiles, String emptyFile,
      String kubeVersion, long maxOutputBytes, String release, String namespace, boolean buildDependencies) {}

  /** The manifests were larger than the request allowed, so they were not sent. */
  record TooLarge(long bytes) {}

  static final int READY = 'H';
  private static final int RENDERED = 'R';
  private static final int FAILED = 'F';
  private static final int TOO_LARGE = 'O';
  /** Every text but the manifests is a path, a message or Helm's arguments. */
  private static final int MAX_TEXT = 16 * 1024 * 1024;
  private static final int MAX_ITEMS = 100_000;

  private RenderProtocol() {}

  static void write(DataOutputStream out, Request r) throws IOException {
    text(out, r.chart());
    out.writeInt(r.valuesFiles().size());
    for (String f : r.valuesFiles()) {
      text(out, f);
    }
    text(out, r.set());
    text(out, r.setFiles());
    text(out, r.emptyFile());
    text(out, r.kubeVersion());
    out.writeLong(r.maxOutputBytes());
    text(out, r.release());
    text(out, r.namespace());
    out.writeBoolean(r.buildDependencies());
    out.flush();
  }

  static Request readRequest(DataInputStream in) throws IOException {
    String chart = text(in);
    List<String> values = new ArrayList<>();
    for (int i = count(in); i > 0; i--) {
      values.add(text(in));
    }
    return new Request(chart, values, text(in), text(in), text(in), text(in), in.readLong(), text(in), text(in),
        in.readBoolean());
  }

  /** Writes what Helm made, or its size alone when that is over the request's limit. */
  static void write(DataOutputStream out, ChartRenderer.Rendering r, long maxOutputBytes) throws IOException {
    if (r instanceof ChartRenderer.Rendered rendered) {
      byte[] manifests = rendered.manifests().getBytes(StandardCharsets.UTF_8);
      if (manifests.length > maxOutputBytes) {
        out.writeByte(TOO_LARGE);
        out.writeLong(manifests.length);
      } else {
        out.writeByte(RENDERED);
        out.writeInt(manifests.length);
        out.write(manifests);
        out.writeInt(rendered.skippedHooks().size());
        for (String h : rendered.skippedHooks()) {
          text(out, h);
        }
      }
    } else if (r instanceof ChartRenderer.Failed failed) {
      out.writeByte(FAILED);
      text(out, failed.message());
    }
    out.flush();
  }

  /**
   * Reads a response: a {@link ChartRenderer.Rendering} or a {@link TooLarge}.
   *
   * @throws IOException also for a frame that is not one the worker writes
   */
  static Object readResponse(DataInputStream in, long maxOutputBytes) throws IOException {
    int kind = in.readUnsignedByte();
    switch (kind) {
      case RENDERED -> {
        int length = in.readInt();
        if (length < 0 || length > maxOutputBytes) {
          throw new IOException("manifests of " + length + " bytes, over the limit of " + maxOutputBytes);
        }
        String manifests = new String(bytes(in, length), StandardCharsets.UTF_8);
        List<String> skipped = new ArrayList<>();
        for (int i = count(in); i > 0; i--) {
          skipped.add(text(in));
        }
        return new ChartRenderer.Rendered(manifests, skipped);
      }
      case FAILED -> {
        return new ChartRenderer.Failed(text(in));
      }
      case TOO_LARGE -> {
        return new TooLarge(in.readLong());
      }
      default -> throw new IOException("an unknown response " + kind);
    }
  }

  private static void text(DataOutputStream out, String s) throws IOException {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  private static String text(DataInputStream in) throws IOException {
    int length = in.readInt();
    if (length < 0 || length > MAX_TEXT) {
      throw new IOException("a text of " + length + " bytes");
    }
    return new String(bytes(in, length), StandardCharsets.UTF_8);
  }

  private static byte[] bytes(DataInputStream in, int length) throws IOException {
    byte[] bytes = in.readNBytes(length);
    if (bytes.length < length) {
      throw new EOFException();
    }
    return bytes;
  }

  private static int count(DataInputStream in) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > MAX_ITEMS) {
      throw new IOException("a list of " + n + " items");
    }
    return n;
  }
}
