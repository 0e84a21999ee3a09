package io.hooklens.lsp;

import io.hooklens.core.model.HookDocument;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which documents the server reads, and which of those it reports on.
 *
 * <p>It reads documents whose language is YAML, JSON or Helm, and any {@code .yaml}, {@code .yml},
 * {@code .json} or {@code .tpl} file whatever language the client gave it. Of those it reports only
 * on files that look like Kubernetes manifests or chart templates, so that a {@code docker-compose.yml}
 * or a GitHub workflow next to them stays silent, syntax errors and duplicate keys included:
 * <ul>
 *   <li>a document of the file is a Kubernetes-style object (a top-level {@code apiVersion} or
 *       {@code kind}, as the engine reads objects); or
 *   <li>the file cannot be read that far, but its text says it is one: in YAML a line that starts, at
 *       column 0, with an {@code apiVersion:} or {@code kind:} key (a chart template's {@code {{ }}}
 *       lines around it do not matter); in JSON both an {@code "apiVersion"} and a {@code "kind"} key,
 *       since JSON indents its top-level keys and other JSON files (VS Code's tasks.json) have
 *       {@code "kind"} alone.
 * </ul>
 */
final class ManifestFiles {
  private static final Set<String> LANGUAGES = Set.of("yaml", "json", "helm");
  private static final Set<String> EXTENSIONS = Set.of(".yaml", ".yml", ".json", ".tpl");

  private static final Pattern YAML_OBJECT_KEY =
      Pattern.compile("^(?:---[ \\t]+)?(?:\\{[ \\t]*)?[\"']?(?:apiVersion|kind)[\"']?[ \\t]*:", Pattern.MULTILINE);
  /** The characters a line that {@link #YAML_OBJECT_KEY} matches can start with. */
  private static final String KEY_STARTS = "-{\"'ak";
  private static final Pattern JSON_API_VERSION = Pattern.compile("\"apiVersion\"\\s*:");
  private static final Pattern JSON_KIND = Pattern.compile("\"kind\"\\s*:");

  private ManifestFiles() {}

  /** Whether the server keeps and lints a document. */
  static boolean handles(String uri, String languageId) {
    if (languageId != null && LANGUAGES.contains(languageId.toLowerCase(Locale.ROOT))) {
      return true;
    }
    String path = pathPart(uri).toLowerCase(Locale.ROOT);
    return EXTENSIONS.stream().anyMatch(path::endsWith);
  }

  /**
   * The name the engine gets: the file's path for {@code file:} URIs (rules look at directories such
   * as a chart's {@code crds/}), else the URI. The engine reads JSON by the {@code .json} extension, so
   * a document the client calls JSON gets one.
   */
  static String lintName(TextDocument doc) {
    Path p = ConfigService.path(doc.uri());
    String name = p != null ? p.toString() : pathPart(doc.uri());
    boolean jsonName = name.toLowerCase(Locale.ROOT).endsWith(".json");
    if ("json".equalsIgnoreCase(doc.languageId()) && !jsonName) {
      return name + ".json";
    }
    return name;
  }

  /** Whether a read file looks like a Kubernetes manifest or a chart template (see the class comment). */
  static boolean kubernetesLike(HookDocument model, boolean json) {
    if (!model.resources().isEmpty()) {
      return true;
    }
    String text = model.source().text();
    if (json) {
      return JSON_API_VERSION.matcher(text).find() && JSON_KIND.matcher(text).find();
    }
    // The key starts a line, so the pattern is tried at line starts only: searching from every character took a
    // tenth of reading an edited document. Lines start where the pattern's ^ matches, after any line break.
    Matcher m = YAML_OBJECT_KEY.matcher(text);
    for (int at = 0; at < text.length(); at = nextLine(text, at)) {
      if (KEY_STARTS.indexOf(text.charAt(at)) >= 0 && m.region(at, text.length()).lookingAt()) {
        return true;
      }
    }
    return false;
  }

  /** Where the line after the one at an offset starts, or the text's length. */
  private static int nextLine(String text, int at) {
    for (int i = at; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
        return i + 2;
      }
      if (c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029') {
        return i + 1;
      }
    }
    return text.length();
  }

  static boolean isJson(String lintName) {
    return lintName.toLowerCase(Locale.ROOT).endsWith(".json");
  }

  private static String pathPart(String uri) {
    int end = uri.length();
    for (char c : new char[] {'?', '#'}) {
      int i = uri.indexOf(c);
      if (i >= 0 && i < end) {
        end = i;
      }
    }
    return uri.substring(0, end);
  }
}
