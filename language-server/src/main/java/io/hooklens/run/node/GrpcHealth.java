package io.hooklens.run.node;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * The smallest gRPC client a health check needs: HTTP/2 with prior knowledge and no TLS, as the kubelet's grpc
 * probe speaks it (insecure credentials). The request is written whole: the preface, SETTINGS (a header table of
 * size 0, so that the server's answer uses only HPACK's static table and literals), one HEADERS frame of literal
 * fields and one DATA frame holding the {@code HealthCheckRequest}. The answer is read until the stream's trailers.
 */
final class GrpcHealth {
  static final int OK = 0;
  static final int DEADLINE_EXCEEDED = 4;
  static final int UNIMPLEMENTED = 12;
  private static final int INTERNAL = 13;
  private static final int UNAVAILABLE = 14;

  /** The status codes' names as grpc-go prints them ({@code codes.Code.String}). */
  private static final List<String> CODES = List.of("OK", "Canceled", "Unknown", "InvalidArgument",
      "DeadlineExceeded", "NotFound", "AlreadyExists", "PermissionDenied", "ResourceExhausted", "FailedPrecondition",
      "Aborted", "OutOfRange", "Unimplemented", "Internal", "Unavailable", "DataLoss", "Unauthenticated");
  /** {@code HealthCheckResponse.ServingStatus}. */
  private static final List<String> SERVING = List.of("UNKNOWN", "SERVING", "NOT_SERVING", "SERVICE_UNKNOWN");
  private static final int DATA = 0;
  private static final int HEADERS = 1;
  private static final int RST_STREAM = 3;
  private static final int SETTINGS = 4;
  private static final int GOAWAY = 7;
  private static final int CONTINUATION = 9;
  private static final int END_STREAM = 0x1;
  private static final int END_HEADERS = 0x4;
  private static final int PADDED = 0x8;
  private static final int PRIORITY = 0x20;
  private static final int SETTINGS_HEADER_TABLE_SIZE = 1;
  /** Larger frames than the default SETTINGS_MAX_FRAME_SIZE are not sent to a client that did not ask for them. */
  private static final int MAX_FRAME = 16_384;

  /**
   * How a call ended.
   *
   * @param code {@code grpc-status}
   * @param message {@code grpc-message}, decoded
   * @param serving the response's status name, when the call succeeded
   */
  record Answer(int code, String message, String serving) {}

  private GrpcHealth() {}

  static String codeName(int code) {
    return code >= 0 && code < CODES.size() ? CODES.get(code) : "Code(" + code + ")";
  }

  /** The whole request for {@code Check(service)} on stream 1. */
  static byte[] request(String authority, String service, long timeoutSeconds) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    frame(out, SETTINGS, 0, 0, new byte[] {0, SETTINGS_HEADER_TABLE_SIZE, 0, 0, 0, 0});
    ByteArrayOutputStream block = new ByteArrayOutputStream();
    field(block, ":method", "POST");
    field(block, ":scheme", "http");
    field(block, ":path", "/grpc.health.v1.Health/Check");
    field(block, ":authority", authority);
    field(block, "content-type", "application/grpc");
    field(block, "user-agent", "kube-probe/1.36");
    field(block, "te", "trailers");
    field(block, "grpc-timeout", timeoutSeconds + "S");
    frame(out, HEADERS, END_HEADERS, 1, block.toByteArray());
    // HealthCheckRequest{service = 1}: proto3 leaves an empty string out.
    ByteArrayOutputStream message = new ByteArrayOutputStream();
    byte[] name = service.getBytes(StandardCharsets.UTF_8);
    if (name.length > 0) {
      message.write(0x0a);
      varint(message, name.length);
      message.writeBytes(name);
    }
    // The gRPC message prefix: not compressed, then the length.
    ByteArrayOutputStream data = new ByteArrayOutputStream();
    data.write(0);
    data.writeBytes(int32(message.size()));
    data.writeBytes(message.toByteArray());
    frame(out, DATA, END_STREAM, 1, data.toByteArray());
    return out.toByteArray();
  }

  /**
   * Reads frames until stream 1 ends; null when the server does not speak HTTP/2 (its first frame is not
   * SETTINGS), as grpc-go then never finishes connecting.
   */
  static Answer read(InputStream in) throws IOException {
    byte[] head = in.readNBytes(9);
    if (head.length < 9 || head[3] != SETTINGS) {
      return null;
    }
    skip(in, length(head));
    ByteArrayOutputStream message = new ByteArrayOutputStream();
    while (true) {
      head = in.readNBytes(9);
      if (head.length < 9) {
        throw new EOFException("connection closed before the call's end");
      }
      int length = length(head);
      if (length > MAX_FRAME) {
        throw new IOException("frame of " + length + " bytes exceeds the largest allowed");
      }
      int type = head[3];
      int flags = head[4] & 0xff;
      int stream = ((head[5] & 0x7f) << 24) | ((head[6] & 0xff) << 16) | ((head[7] & 0xff) << 8) | (head[8] & 0xff);
      byte[] payload = in.readNBytes(length);
      if (payload.length < length) {
        throw new EOFException("connection closed inside a frame");
      }
      if (type == GOAWAY) {
        return new Answer(UNAVAILABLE, "connection closed by the server (GOAWAY)", null);
      }
      if (stream != 1) {
        continue;
      }
      switch (type) {
        case DATA -> message.writeBytes(unpadded(payload, flags, 0));
        case RST_STREAM -> {
          return new Answer(INTERNAL, "stream terminated by RST_STREAM with error code: " + int32(payload, 0), null);
        }
        case HEADERS -> {
          Hpack.Fields fields = Hpack.decode(headerBlock(in, payload, flags));
          if ((flags & END_STREAM) != 0) {
            return answer(fields, message.toByteArray());
          }
        }
        default -> { }
      }
      if (type == DATA && (flags & END_STREAM) != 0) {
        return new Answer(INTERNAL, "server closed the stream without sending trailers", null);
      }
    }
  }

  /** A HEADERS frame's block with the CONTINUATION frames that follow it. */
  private static byte[] headerBlock(InputStream in, byte[] payload, int flags) throws IOException {
    ByteArrayOutputStream block = new ByteArrayOutputStream();
    block.writeBytes(unpadded(payload, flags, (flags & PRIORITY) != 0 ? 5 : 0));
    int more = flags;
    while ((more & END_HEADERS) == 0) {
      byte[] next = in.readNBytes(9);
      if (next.length < 9 || next[3] != CONTINUATION) {
        throw new IOException("header block not continued");
      }
      more = next[4] & 0xff;
      block.writeBytes(in.readNBytes(Math.min(length(next), MAX_FRAME)));
    }
    return block.toByteArray();
  }

  private static Answer answer(Hpack.Fields trailers, byte[] message) {
    String status = trailers.get("grpc-status");
    if (status == null) {
      return new Answer(INTERNAL, "server closed the stream without a grpc-status", null);
    }
    int code;
    try {
      code = Integer.parseInt(status);
    } catch (NumberFormatException e) {
      return new Answer(INTERNAL, "malformed grpc-status: " + status, null);
    }
    String text = trailers.get("grpc-message");
    return new Answer(code, text == null ? "" : percentDecoded(text), code == OK ? serving(message) : null);
  }

  /** {@code HealthCheckResponse.status} (field 1, a varint) of the first message; absent means UNKNOWN. */
  private static String serving(byte[] data) {
    int value = 0;
    if (data.length >= 7 && data[5] == 0x08) {
      value = data[6] & 0x7f;
    }
    return value < SERVING.size() ? SERVING.get(value) : String.valueOf(value);
  }

  /** gRPC's percent-encoding of {@code grpc-message}. */
  private static String percentDecoded(String text) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '%' && i + 2 < text.length()) {
        try {
          out.write(Integer.parseInt(text.substring(i + 1, i + 3), 16));
          i += 2;
          continue;
        } catch (NumberFormatException e) {
          // Kept as it was sent.
        }
      }
      out.write(c);
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  private static byte[] unpadded(byte[] payload, int flags, int skip) {
    int pad = (flags & PADDED) != 0 && payload.length > 0 ? payload[0] & 0xff : 0;
    int from = ((flags & PADDED) != 0 ? 1 : 0) + skip;
    int to = Math.max(from, payload.length - pad);
    return Arrays.copyOfRange(payload, Math.min(from, payload.length), Math.min(to, payload.length));
  }

  private static int length(byte[] head) {
    return ((head[0] & 0xff) << 16) | ((head[1] & 0xff) << 8) | (head[2] & 0xff);
  }

  private static void skip(InputStream in, int n) throws IOException {
    if (in.readNBytes(n).length < n) {
      throw new EOFException("connection closed inside a frame");
    }
  }

  private static long int32(byte[] b, int at) {
    return b.length < at + 4 ? -1 : ((long) (b[at] & 0xff) << 24) | ((b[at + 1] & 0xff) << 16)
        | ((b[at + 2] & 0xff) << 8) | (b[at + 3] & 0xff);
  }

  private static byte[] int32(int n) {
    return new byte[] {(byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n};
  }

  private static void frame(ByteArrayOutputStream out, int type, int flags, int stream, byte[] payload) {
    out.write(payload.length >>> 16);
    out.write(payload.length >>> 8);
    out.write(payload.length);
    out.write(type);
    out.write(flags);
    out.writeBytes(int32(stream));
    out.writeBytes(payload);
  }

  /** A literal field without indexing, its name new (HPACK 6.2.2), neither string Huffman-coded. */
  private static void field(ByteArrayOutputStream out, String name, String value) {
    out.write(0);
    for (String s : List.of(name, value)) {
      byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
      Hpack.integer(out, 0, 7, bytes.length);
      out.writeBytes(bytes);
    }
  }

  private static void varint(ByteArrayOutputStream out, int n) {
    while (n >= 0x80) {
      out.write((n & 0x7f) | 0x80);
      n >>>= 7;
    }
    out.write(n);
  }
}
