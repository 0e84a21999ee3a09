package io.hooklens.core.model;

import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YScalar;
import java.util.OptionalLong;

/**
 * A pod spec found in a resource: the Pod's own spec or a pod template's spec.
 *
 * @param hidesContent a chart template writes part of it with an action the reader could not see, so
 *     a field missing here is unknown rather than absent
 */
public record PodSpec(YMap node, Resource owner, boolean hidesContent) {
  /** The {@code terminationGracePeriodSeconds} scalar as written, or null. */
  public YScalar graceNode() {
    return node.scalar("terminationGracePeriodSeconds");
  }

  /**
   * The effective grace period: the written integer, 30 when absent, empty when unknown (a template
   * expression, a value of the wrong type, or absent where template output may set it).
   */
  public OptionalLong grace() {
    YScalar g = graceNode();
    if (g == null || g.type() == YScalar.Type.NULL) {
      return hidesContent ? OptionalLong.empty() : OptionalLong.of(Termination.DEFAULT_GRACE_SECONDS);
    }
    return g.asLong();
  }

  public boolean graceIsDefault() {
    YScalar g = graceNode();
    return g == null || g.type() == YScalar.Type.NULL;
  }

  public String restartPolicy() {
    return node.string("restartPolicy");
  }

  /** {@code spec.os.name}, or null. */
  public String osName() {
    YMap os = node.map("os");
    return os == null ? null : os.string("name");
  }

  /**
   * Describes the grace period for messages: {@code 30s (default)}, {@code 45s}, or {@code 24s (kubectl reads 030 as
   * 24)} when the number is written in another form than its decimal (octal, hex, a whole float).
   */
  public String describeGrace() {
    OptionalLong g = grace();
    if (g.isEmpty()) {
      return "unknown";
    }
    String seconds = g.getAsLong() + "s";
    if (graceIsDefault()) {
      return seconds + " (default)";
    }
    String written = graceNode().value();
    String value = String.valueOf(g.getAsLong());
    return written.equals(value) ? seconds : seconds + " (kubectl reads " + written + " as " + value + ")";
  }
}
