package io.hooklens.core.model;

import io.hooklens.core.yaml.Range;
import io.hooklens.core.yaml.SourceText;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code # hooklens:ignore HL401 reason} comment (the finding's line or the line above) or a
 * {@code # hooklens:ignore-file HL1xx reason} comment (the whole file).
 *
 * @param ruleIds ids, names or patterns such as {@code HL4xx}, as written
 * @param standalone the comment is alone on its line, so it also covers the next line
 */
public record Suppression(Range range, List<String> ruleIds, String reason, boolean fileLevel,
    boolean standalone) {
  private static final Pattern COMMENT =
      Pattern.compile("(?:^|\\s)#\\s*hooklens:(ignore-file|ignore)\\b[ \\t]*([^\\s#]*)(.*)$");

  /** Finds suppression comments; cheap when the text mentions none. */
  public static List<Suppression> parse(SourceText source) {
    if (!source.text().contains("hooklens:")) {
      return List.of();
    }
    List<Suppression> found = new ArrayList<>();
    for (int line = 0; line < source.lineCount(); line++) {
      String text = source.line(line);
      if (!text.contains("hooklens:")) {
        continue;
      }
      Matcher m = COMMENT.matcher(text);
      if (!m.find()) {
        continue;
      }
      int hash = text.indexOf('#', m.start());
      List<String> ids = m.group(2).isEmpty() ? List.of()
          : Arrays.stream(m.group(2).split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
      // A further " # " starts an unrelated comment, not part of the reason.
      String reason = (" " + m.group(3) + " ").split("\\s#\\s", 2)[0].trim();
      boolean standalone = text.substring(0, hash).isBlank();
      Range range = Range.of(line, text.codePointCount(0, hash), line, text.codePointCount(0, text.length()));
      found.add(new Suppression(range, ids, reason, m.group(1).equals("ignore-file"), standalone));
    }
    return found;
  }

  /** Whether this comment covers a finding that starts on {@code line}. */
  public boolean coversLine(int line) {
    return fileLevel || range.start().line() == line || (standalone && range.start().line() + 1 == line);
  }
}
