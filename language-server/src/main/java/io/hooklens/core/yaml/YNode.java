package io.hooklens.core.yaml;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A node of a parsed YAML or JSON document with its source range. Nodes form a tree; an alias is the
 * very node its anchor names, so a node reached through an alias reports the anchor's range.
 */
public abstract sealed class YNode permits YMap, YSeq, YScalar {
  private YNode parent;

  /**
   * Where the node is written. Each kind keeps its range as numbers of its own rather than a Range of two Positions:
   * those objects were a third of what a read file took.
   */
  public abstract Range range();

  public YNode parent() {
    return parent;
  }

  /**
   * The map key (a String) or sequence index (an Integer) under which the parent holds this node. Found in the
   * parent rather than kept in each node: a field here cost every node of a large file four bytes, for a question
   * few callers ask.
   */
  public Object keyInParent() {
    if (parent instanceof YMap m) {
      return m.keyOf(this);
    }
    if (parent instanceof YSeq s) {
      return s.indexOf(this);
    }
    return null;
  }

  /** Sets the parent of a node the first time it is added to a collection; a node reached by alias keeps it. */
  void attach(YNode parent) {
    if (this.parent == null) {
      this.parent = parent;
    }
  }

  /** A dotted path such as {@code spec.template.spec.containers[1].lifecycle}. */
  public String path() {
    Deque<Object> keys = new ArrayDeque<>();
    for (YNode n = this; n.parent != null; n = n.parent) {
      keys.push(n.keyInParent());
    }
    StringBuilder sb = new StringBuilder();
    for (Object k : keys) {
      if (k instanceof Integer i) {
        sb.append('[').append(i).append(']');
      } else {
        if (sb.length() > 0) {
          sb.append('.');
        }
        sb.append(k);
      }
    }
    return sb.toString();
  }

  public YMap asMap() {
    return this instanceof YMap m ? m : null;
  }

  public YSeq asSeq() {
    return this instanceof YSeq s ? s : null;
  }

  public YScalar asScalar() {
    return this instanceof YScalar s ? s : null;
  }
}
