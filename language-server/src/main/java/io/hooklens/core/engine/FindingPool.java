package io.hooklens.core.engine;

import io.hooklens.core.model.Resource;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * What the findings of one file share, each kept once: a large file's objects repeat, and so do their findings'
 * messages, fix titles and the object they are about.
 */
final class FindingPool {
  private final Map<String, String> texts = new HashMap<>();
  private final Map<Resource, Finding.ResourceRef> refs = new IdentityHashMap<>();

  String text(String text) {
    String known = texts.putIfAbsent(text, text);
    return known == null ? text : known;
  }

  Finding.ResourceRef ref(Resource r) {
    return refs.computeIfAbsent(r, x -> new Finding.ResourceRef(x.apiVersion(), x.kind(), x.name(), x.document()));
  }
}
