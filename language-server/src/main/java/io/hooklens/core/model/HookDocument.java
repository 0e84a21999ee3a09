package io.hooklens.core.model;

import io.hooklens.core.yaml.ParsedFile;
import io.hooklens.core.yaml.SourceText;
import io.hooklens.core.yaml.YNode;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * What rules read: a parsed file and the resources, pod specs, containers and lifecycle handlers
 * found in it, each found once so that rules do not walk the tree again.
 */
public final class HookDocument {
  private final String name;
  private final ParsedFile parsed;
  private final List<Resource> resources;
  private final List<PodSpec> podSpecs;
  private final List<Container> containers;
  private final List<Handler> handlers;
  private final Map<YNode, Resource> byRoot = new IdentityHashMap<>();
  private final List<Suppression> suppressions;

  HookDocument(String name, ParsedFile parsed, List<Resource> resources, List<PodSpec> podSpecs,
      List<Container> containers, List<Handler> handlers) {
    this.name = name;
    this.parsed = parsed;
    this.resources = List.copyOf(resources);
    this.podSpecs = List.copyOf(podSpecs);
    this.containers = List.copyOf(containers);
    this.handlers = List.copyOf(handlers);
    for (Resource r : resources) {
      byRoot.put(r.root(), r);
    }
    List<Suppression> all = new ArrayList<>(Suppression.parse(parsed.source()));
    all.addAll(Suppression.annotations(this.resources));
    this.suppressions = List.copyOf(all);
  }

  /** Builds the document model of a parsed file. */
  public static HookDocument of(String name, ParsedFile parsed) {
    return ResourceIndex.build(name, parsed);
  }

  /** The file name as given by the user or editor. */
  public String name() {
    return name;
  }

  public ParsedFile parsed() {
    return parsed;
  }

  public SourceText source() {
    return parsed.source();
  }

  public List<Resource> resources() {
    return resources;
  }

  public List<PodSpec> podSpecs() {
    return podSpecs;
  }

  public List<Container> containers() {
    return containers;
  }

  public List<Handler> handlers() {
    return handlers;
  }

  /** The suppressions of the file: its comments, then its objects' annotations. */
  public List<Suppression> suppressions() {
    return suppressions;
  }

  /** The innermost resource that contains a node, or null. */
  public Resource resourceOf(YNode node) {
    for (YNode n = node; n != null; n = n.parent()) {
      Resource r = byRoot.get(n);
      if (r != null) {
        return r;
      }
    }
    return null;
  }
}
