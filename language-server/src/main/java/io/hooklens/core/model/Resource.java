package io.hooklens.core.model;

import io.hooklens.core.yaml.YMap;

/**
 * A Kubernetes-style object: a top-level document, an item of a {@code List}, or an object of an
 * OpenShift {@code Template}.
 *
 * @param document index of the YAML document it is in
 * @param parent the List or Template holding it, or null
 * @param inTemplate inside an OpenShift Template, where {@code ${PARAM}} values are unknown
 */
public record Resource(int document, YMap root, String apiVersion, String kind, String name,
    String namespace, Resource parent, boolean inTemplate) {

  public YMap metadata() {
    return root.map("metadata");
  }

  public YMap annotations() {
    YMap md = metadata();
    return md == null ? null : md.map("annotations");
  }

  /** {@code Kind/name}, or just the kind when unnamed. */
  public String displayName() {
    return name == null ? String.valueOf(kind) : kind + "/" + name;
  }
}
