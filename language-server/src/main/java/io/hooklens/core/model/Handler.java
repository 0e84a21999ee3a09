package io.hooklens.core.model;

import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code postStart} or {@code preStop} handler of a container.
 *
 * @param key the {@code preStop:} key, where findings about the handler as a whole go
 * @param value the handler as written; {@link #map()} is null when it is not a mapping
 */
public record Handler(Container container, Hook hook, YScalar key, YNode value) {
  /** The action fields, in the order the API server counts them. */
  public static final List<String> ACTIONS = List.of("exec", "httpGet", "tcpSocket", "sleep");

  public YMap map() {
    return value == null ? null : value.asMap();
  }

  /** The action fields present, in API order; an explicit null counts as absent, as in Go. */
  public List<String> actions() {
    YMap m = map();
    List<String> found = new ArrayList<>();
    if (m != null) {
      for (String a : ACTIONS) {
        YNode n = m.get(a);
        if (n != null && !(n instanceof YScalar s && s.type() == YScalar.Type.NULL)) {
          found.add(a);
        }
      }
    }
    return found;
  }

  public PodSpec pod() {
    return container.pod();
  }

  /** {@code preStop of container "app"}, for messages. */
  public String describe() {
    return hook.field() + " of container \"" + container.displayName() + "\"";
  }
}
