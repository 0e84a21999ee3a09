package io.hooklens.lsp;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * An in-memory byte pipe between any threads. The JDK's piped streams remember the last thread that wrote and
 * fail a read with "Write end dead" once that thread has ended, which a thread pool's writers do at any time.
 */
final class Pipe {
  private final byte[] buffer;
  private int start;
  private int size;
  private boolean closed;

  final InputStream in = new InputStream() {
    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return take(b, off, len);
    }

    @Override
    public int available() {
      return buffered();
    }
  };

  final OutputStream out = new OutputStream() {
    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      put(b, off, len);
    }

    @Override
    public void close() {
      closeWriter();
    }
  };

  Pipe(int capacity) {
    this.buffer = new byte[capacity];
  }

  private synchronized int take(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    while (size == 0) {
      if (closed) {
        return -1;
      }
      waitForChange();
    }
    int n = Math.min(len, size);
    for (int i = 0; i < n; i++) {
      b[off + i] = buffer[(start + i) % buffer.length];
    }
    start = (start + n) % buffer.length;
    size -= n;
    notifyAll();
    return n;
  }

  private synchronized void put(byte[] b, int off, int len) throws IOException {
    int written = 0;
    while (written < len) {
      if (closed) {
        throw new IOException("the pipe is closed");
      }
      if (size == buffer.length) {
        waitForChange();
        continue;
      }
      int n = Math.min(len - written, buffer.length - size);
      for (int i = 0; i < n; i++) {
        buffer[(start + size + i) % buffer.length] = b[off + written + i];
      }
      size += n;
      written += n;
      notifyAll();
    }
  }

  private synchronized int buffered() {
    return size;
  }

  private synchronized void closeWriter() {
    closed = true;
    notifyAll();
  }

  private void waitForChange() throws IOException {
    try {
      wait();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }
}
