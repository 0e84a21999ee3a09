package io.hooklens.core.model;

import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YScalar;
import java.util.List;

/**
 * A container of a pod spec, with the list it belongs to.
 *
 * @param hidesContent a chart template writes part of it with an action the reader could not see
 */
public record Container(YMap node, PodSpec pod, Kind kind, int index, String name, boolean hidesContent) {
  /** The pod-spec list a container is declared in. */
  public enum Kind {
    REGULAR("containers"), INIT("initContainers"), EPHEMERAL("ephemeralContainers");

    private final String field;

    Kind(String field) {
      this.field = field;
    }

    public String field() {
      return field;
    }
  }

  public YMap lifecycle() {
    return node.map("lifecycle");
  }

  /** An init container with {@code restartPolicy: Always}, which Kubernetes runs as a sidecar. */
  public boolean isSidecar() {
    return kind == Kind.INIT && "Always".equals(node.string("restartPolicy"));
  }

  /**
   * The key of an init container that sets {@code lifecycle} and misspells {@code restartPolicy: Always}
   * ({@code restartPolcy: Always}), else null. The API drops the key, so the container is no sidecar and its
   * lifecycle gets the pod rejected: HL118 says so on this key, and the unknown-field rules say nothing more. No
   * field of a container is within two edits of restartPolicy, so any key that near misspells it.
   */
  public YMap.Entry misspeltSidecar() {
    if (kind != Kind.INIT || node.entry("restartPolicy") != null || node.entry("lifecycle") == null) {
      return null;
    }
    for (YMap.Entry e : node.entries()) {
      if (!e.key().isTemplated() && e.value() instanceof YScalar v && "Always".equals(v.value())
          && Spelling.nearestField(e.key().value(), List.of("restartPolicy")).contains("restartPolicy")) {
        return e;
      }
    }
    return null;
  }

  /**
   * Whether the API may accept a {@code lifecycle} here: a regular container or a sidecar, or an init container
   * whose {@code restartPolicy} a template writes. Elsewhere (a plain init container, an ephemeral container) the
   * API rejects it, which HL118 and HL119 say, and nothing is derived from its hooks.
   */
  public boolean mayHaveLifecycle() {
    if (kind == Kind.REGULAR || isSidecar()) {
      return true;
    }
    YScalar restartPolicy = node.scalar("restartPolicy");
    return kind == Kind.INIT && (restartPolicy != null ? restartPolicy.isTemplated() : hidesContent);
  }

  public String displayName() {
    return name == null ? kind.field() + "[" + index + "]" : name;
  }
}
