package io.hooklens.launcher;

/** Stands in for the CLI in a jar the launcher test builds: prints its arguments. */
public final class LauncherProbe {
  private LauncherProbe() {}

  public static void main(String[] args) {
    System.out.println("probe " + String.join(" ", args));
  }
}
