package io.hooklens.chart;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

/**
 * Keeps the JVM's handlers of SIGINT, SIGQUIT and SIGTERM across calls into helm-java. Its native Helm
 * registers Go handlers for these signals on every render and never gives them back, after which
 * neither Ctrl-C nor the SIGTERM of a CI timeout would end the process. The handlers are saved before
 * the first call and put back after each; a render in flight then simply ends with the process.
 */
final class SignalHandlers {
  private interface LibC extends Library {
    int sigaction(int signal, Pointer action, Pointer oldAction);
  }

  private static final int[] SIGNALS = {2, 3, 15};
  /** Larger than {@code struct sigaction} of every Linux C library; only copied, never interpreted. */
  private static final int ACTION_SIZE = 512;

  private final LibC libc;
  private final Memory[] saved = new Memory[SIGNALS.length];

  private SignalHandlers(LibC libc) {
    this.libc = libc;
    for (int i = 0; i < SIGNALS.length; i++) {
      saved[i] = new Memory(ACTION_SIZE);
      saved[i].clear();
      libc.sigaction(SIGNALS[i], null, saved[i]);
    }
  }

  /** The current handlers, to be restored later. */
  static SignalHandlers save() {
    return new SignalHandlers(Native.load("c", LibC.class));
  }

  void restore() {
    for (int i = 0; i < SIGNALS.length; i++) {
      libc.sigaction(SIGNALS[i], saved[i], null);
    }
  }
}
