package io.hooklens.app;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.Locale;

/** The words an error line gives for a failed read or write, without the exception's paths and names. */
public final class IoErrors {
  private IoErrors() {}

  public static String reason(Throwable e) {
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof NoSuchFileException) {
      return "no such file or directory";
    }
    if (e instanceof FileSystemException f && f.getReason() != null && !f.getReason().isEmpty()) {
      // The system's own words ("Read-only file system"), in the lower case of our other reasons.
      String r = f.getReason();
      return r.substring(0, 1).toLowerCase(Locale.ROOT) + r.substring(1);
    }
    String m = e.getMessage();
    return m == null ? e.getClass().getSimpleName() : m;
  }
}
