package io.hooklens.chart;

import io.hooklens.core.engine.StrVals;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Values given as Helm's {@code --set}, {@code --set-string} and {@code --set-file} take them: arguments in
 * Helm's {@code --set} syntax ({@link StrVals}), as written. Helm applies every {@code --set}, then every
 * {@code --set-string}, then every {@code --set-file}, each in order, a later value over an earlier one.
 *
 * @param set values Helm types: integers, booleans, null (which removes a key), else text
 * @param setString values that stay text
 * @param setFile paths of files, whose content is the value, as text; relative to the working directory
 */
public record SetValues(List<String> set, List<String> setString, List<String> setFile) {
  public static final SetValues NONE = new SetValues(List.of(), List.of(), List.of());

  public SetValues {
    set = List.copyOf(set);
    setString = List.copyOf(setString);
    setFile = List.copyOf(setFile);
  }

  /**
   * The values as helm-java hands them to Helm. Each {@code set(key, value)} of helm-java reaches Helm's
   * {@code --set} parser as {@code key=value}, the value escaped and the key as it is, from a Go map, whose
   * order is random; so all {@code --set} pairs go as one key, written back escaped, ahead of an empty key
   * that Helm skips ({@code ,=}). Text Helm does not type reaches it only through helm-java's
   * {@code setFile}: each {@code --set-string} value and each {@code --set-file} content becomes a file of
   * the copy, and their pairs go as one key in the same way, ahead of an empty file.
   *
   * @param set the {@code --set} pairs, or empty
   * @param files the {@code --set-string} and {@code --set-file} pairs with the copy's files as values, or empty
   * @param empty an empty file, the value of the empty key after the files' pairs
   */
  record ForHelm(String set, String files, Path empty) {}

  /** Writes what Helm reads besides the arguments into the copy. */
  ForHelm forHelm(ChartCopy copy) throws IOException {
    List<StrVals.Pair> typed = new ArrayList<>();
    for (String a : set) {
      for (StrVals.Pair p : pairs(a)) {
        typed.add(hidden(p, p.items().stream().map(HelmText::hideHooks).toList()));
      }
    }
    List<StrVals.Pair> files = new ArrayList<>();
    addFiles(setString, copy, item -> item.getBytes(StandardCharsets.UTF_8), files);
    addFiles(setFile, copy, item -> Files.readAllBytes(Path.of(item)), files);
    return new ForHelm(StrVals.write(typed), StrVals.write(files), files.isEmpty() ? null : copy.value(new byte[0]));
  }

  private static List<StrVals.Pair> pairs(String argument) {
    StrVals.Parsed parsed = StrVals.parse(argument);
    if (parsed.error() != null) {
      // Commands and configuration readers refuse such arguments before anything is rendered.
      throw new IllegalArgumentException(argument + ": " + parsed.error());
    }
    return parsed.pairs();
  }

  /** A pair with its key rewritten as the chart's files are, so that Helm keeps hook resources; new items. */
  private static StrVals.Pair hidden(StrVals.Pair p, List<String> items) {
    List<StrVals.Step> path = new ArrayList<>();
    for (StrVals.Step s : p.path()) {
      path.add(s instanceof StrVals.Name n ? new StrVals.Name(HelmText.hideHooks(n.name())) : s);
    }
    return new StrVals.Pair(path, items, p.list());
  }

  private interface Content {
    byte[] of(String item) throws IOException;
  }

  /** The pairs of arguments with each item replaced by a file of the copy that holds its content. */
  private static void addFiles(List<String> arguments, ChartCopy copy, Content content, List<StrVals.Pair> out)
      throws IOException {
    for (String a : arguments) {
      for (StrVals.Pair p : pairs(a)) {
        List<String> paths = new ArrayList<>();
        for (String item : p.items()) {
          paths.add(copy.value(content.of(item)).toString());
        }
        out.add(hidden(p, paths));
      }
    }
  }
}
