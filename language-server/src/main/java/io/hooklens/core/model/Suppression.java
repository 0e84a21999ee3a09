package io.hooklens.core.model;

import io.hooklens.core.yaml.Position;
import io.hooklens.core.yaml.Range;
import io.hooklens.core.yaml.SourceText;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YScalar;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code # hooklens:ignore HL401 reason} comment (the finding's line or the line above), a
 * {@code # hooklens:ignore-file HL1xx reason} comment (the whole file), or an annotation
 * {@code hooklens.io/ignore-HL401: "reason"} (the object, and the objects of a List or Template it is on).
 * Every form applies with or without a reason, and HL004 asks for a missing one.
 *
 * @param ruleIds ids, names or patterns such as {@code HL4xx}, as written
 * @param reason why, without surrounding whitespace; empty when there is none
 * @param standalone the comment is alone on its line, so it also covers the next line
 * @param object the annotated object; null for a comment
 */
public record Suppression(Range range, List<String> ruleIds, String reason, boolean fileLevel,
    boolean standalone, Resource object) {
  /** Prefix of the annotation's key; the rest names the rule. */
  private static final String ANNOTATION_PREFIX = "hooklens.io/ignore-";

  private static final Pattern COMMENT =
      Pattern.compile("(?:^|\\s)#\\s*hooklens:(ignore-file|ignore)\\b[ \\t]*([^\\s#]*)(.*)$");
  /** A further comment after the reason; compiled once, where String.split compiled it for every comment. */
  private static final Pattern FURTHER_COMMENT = Pattern.compile("\\s#\\s");

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
      String reason = FURTHER_COMMENT.split(" " + m.group(3) + " ", 2)[0].trim();
      boolean standalone = text.substring(0, hash).isBlank();
      Range range = Range.of(line, text.codePointCount(0, hash), line, text.codePointCount(0, text.length()));
      found.add(new Suppression(range, ids, reason, m.group(1).equals("ignore-file"), standalone, null));
    }
    return found;
  }

  /** The suppression annotations of the objects, from the key to the end of the value. */
  static List<Suppression> annotations(List<Resource> objects) {
    List<Suppression> found = new ArrayList<>();
    for (Resource r : objects) {
      YMap annotations = r.annotations();
      if (annotations == null) {
        continue;
      }
      for (YMap.Entry e : annotations.entries()) {
        String key = e.key().value();
        if (!key.startsWith(ANNOTATION_PREFIX)) {
          continue;
        }
        String id = key.substring(ANNOTATION_PREFIX.length());
        String reason = e.value() instanceof YScalar s && s.type() != YScalar.Type.NULL ? s.value().strip() : "";
        // An alias's node is the anchored one, written before the key: then the annotation is its key alone.
        Position end = e.value().range().start().compareTo(e.key().range().end()) >= 0 ? e.value().range().end()
            : e.key().range().end();
        found.add(new Suppression(new Range(e.key().range().start(), end), id.isEmpty() ? List.of() : List.of(id),
            reason, false, false, r));
      }
    }
    return found;
  }

  /** Whether this comment covers a finding that starts on {@code line}; an annotation covers objects instead. */
  public boolean coversLine(int line) {
    return fileLevel || range.start().line() == line || (standalone && range.start().line() + 1 == line);
  }
}
