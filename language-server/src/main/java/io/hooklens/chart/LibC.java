package io.hooklens.chart;

import com.sun.jna.Library;
import com.sun.jna.Native;

/** The C library's descriptor calls, for moving the descriptors that native Helm writes to. */
interface LibC extends Library {
  LibC INSTANCE = Native.load("c", LibC.class);

  int dup(int fd);

  int dup2(int fd, int to);

  int creat(String path, int mode);

  int close(int fd);
}
