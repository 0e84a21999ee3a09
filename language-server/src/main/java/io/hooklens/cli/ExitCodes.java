package io.hooklens.cli;

/** Exit codes of every command. */
public final class ExitCodes {
  public static final int CLEAN = 0;
  public static final int FINDINGS = 1;
  public static final int USAGE = 2;
  public static final int INTERNAL = 3;

  private ExitCodes() {}
}
