package io.hooklens.rules.helm;

import io.hooklens.core.model.PodSpec;
import io.hooklens.core.model.Resource;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;

/** Where the Helm rules point their findings when the node they are about has no extent of its own. */
final class FindingPlaces {
  private FindingPlaces() {}

  /** The node of {@code metadata.name}, where findings about the object a resource creates go. */
  static YNode nameNode(Resource r) {
    return r.metadata().scalar("name");
  }

  /** The value of an entry, or its key when the value is empty and has no extent to point at. */
  static YNode valueOrKey(YMap.Entry e) {
    YNode v = e.value();
    return v.range().start().equals(v.range().end()) ? e.key() : v;
  }

  /**
   * Where to report a pod-spec field that is missing: the {@code spec:} key holding the pod spec, or the
   * pod spec itself when it has no key (a flow mapping reached through an alias).
   */
  static YNode specKey(PodSpec pod) {
    if (pod.node().parent() instanceof YMap parent && pod.node().keyInParent() instanceof String k) {
      YMap.Entry e = parent.entry(k);
      if (e != null && e.value() == pod.node()) {
        return e.key();
      }
    }
    return pod.node();
  }
}
