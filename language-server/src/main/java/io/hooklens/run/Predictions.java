package io.hooklens.run;

import io.hooklens.core.engine.Finding;
import io.hooklens.core.yaml.Position;
import io.hooklens.core.yaml.Range;
import io.hooklens.run.report.Prediction;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/** The static findings about something that ran, for the report. */
final class Predictions {
  private Predictions() {}

  /**
   * The findings that start inside a range of the manifests (its end is where the next key starts), or that
   * name a place inside it (HL221 on a ConfigMap hook names the Job that runs before it), placed where the
   * user wrote them: through {@code origins} for a rendered chart, else where they are.
   */
  static List<Prediction> inside(List<Finding> findings, Range range, Function<Range, Origin> origins) {
    List<Prediction> out = new ArrayList<>();
    for (Finding f : findings) {
      Position p = f.range().start();
      if (inside(p, range) || f.related().stream().anyMatch(r -> inside(r.range().start(), range))) {
        Origin origin = origins == null ? null : origins.apply(f.range());
        Position at = origin == null ? p : origin.position();
        out.add(new Prediction(f.ruleId(), f.severity().name().toLowerCase(Locale.ROOT), f.message(),
            origin == null ? null : origin.file(), at.line() + 1, at.column() + 1));
      }
    }
    return out;
  }

  private static boolean inside(Position p, Range range) {
    return p.compareTo(range.start()) >= 0 && p.compareTo(range.end()) < 0;
  }
}
