package io.hooklens.intellij;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Java runtime that starts the server: by default the IDE's own (a JetBrains IDE runs on its bundled
 * runtime, Java 21 since 2024.2), so users need no Java install; another one when the user names it.
 *
 * @param home the runtime's folder
 * @param java its java executable
 * @param source where it came from, for messages
 */
public record JavaRuntime(Path home, Path java, String source) {
  /** The oldest Java the server runs on. */
  public static final int MIN_JAVA = 17;
  /** The IDE's VM option that names another runtime (Help | Edit Custom VM Options). */
  public static final String PROPERTY = "hooklens.java.home";
  /** The environment variable that names another runtime. */
  public static final String ENVIRONMENT = "HOOKLENS_JAVA_HOME";

  private static final Pattern RELEASE_VERSION = Pattern.compile("(?m)^JAVA_VERSION=\"([^\"]+)\"");

  /** No usable runtime; the message says which one was tried and how to choose another. */
  public static final class NotUsable extends Exception {
    private static final long serialVersionUID = 1L;

    NotUsable(String message) {
      super(message);
    }
  }

  /**
   * The runtime to use. A runtime the user named that does not work is an error of its own rather than a
   * reason to fall back to the IDE's silently: the user chose it.
   *
   * @param property the {@value #PROPERTY} VM option, or null
   * @param environment the {@value #ENVIRONMENT} variable, or null
   * @param ideHome the running IDE's {@code java.home}
   */
  public static JavaRuntime resolve(String property, String environment, String ideHome) throws NotUsable {
    if (property != null && !property.isBlank()) {
      return named(Path.of(property.strip()), "the " + PROPERTY + " VM option");
    }
    if (environment != null && !environment.isBlank()) {
      return named(Path.of(environment.strip()), "the " + ENVIRONMENT + " environment variable");
    }
    Path home = Path.of(ideHome);
    // The IDE runs on this runtime, so it is new enough for the IDE's LSP4IJ, which needs Java 17 as well.
    return new JavaRuntime(home, executable(home), "the IDE's runtime");
  }

  /** The runtime of this process, as the IDE sees it. */
  public static JavaRuntime ofThisProcess() throws NotUsable {
    return resolve(System.getProperty(PROPERTY), System.getenv(ENVIRONMENT), System.getProperty("java.home"));
  }

  private static JavaRuntime named(Path home, String source) throws NotUsable {
    Path java = executable(home);
    if (!Files.isRegularFile(java) || !Files.isExecutable(java)) {
      throw new NotUsable("Hooklens: " + source + " names " + home + ", which has no executable " + home.relativize(java)
          + "; name a Java " + MIN_JAVA + "+ folder there, or remove it to use the IDE's own runtime.");
    }
    Optional<Integer> major = releaseMajor(home);
    if (major.isPresent() && major.get() < MIN_JAVA) {
      throw new NotUsable("Hooklens: " + source + " names " + home + ", which is Java " + major.get()
          + "; the server needs Java " + MIN_JAVA + " or newer.");
    }
    return new JavaRuntime(home, java, source);
  }

  private static Path executable(Path home) {
    boolean windows = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
    return home.resolve("bin").resolve(windows ? "java.exe" : "java");
  }

  /** The major version that the runtime's release file names, without starting a JVM. */
  static Optional<Integer> releaseMajor(Path home) {
    String release;
    try {
      release = Files.readString(home.resolve("release"));
    } catch (IOException e) {
      return Optional.empty();
    }
    Matcher m = RELEASE_VERSION.matcher(release);
    if (!m.find()) {
      return Optional.empty();
    }
    String[] parts = m.group(1).split("[.+_-]");
    try {
      int first = Integer.parseInt(parts[0]);
      // 1.8.0_292 is Java 8.
      return Optional.of(first == 1 && parts.length > 1 ? Integer.parseInt(parts[1]) : first);
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }
}
