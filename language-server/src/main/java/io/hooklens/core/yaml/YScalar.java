package io.hooklens.core.yaml;

import java.util.OptionalLong;

/** A scalar with its resolved type: a plain {@code 5} is an INT, a quoted {@code "5"} a STRING. */
public final class YScalar extends YNode {
  /** The YAML type a scalar resolves to under Kubernetes' YAML reading. */
  public enum Type { STRING, INT, FLOAT, BOOL, NULL }

  private static final Type[] TYPES = Type.values();
  private static final int QUOTED = 8;

  private final int startLine;
  private final int startColumn;
  private final int endLine;
  private final int endColumn;
  private final String value;
  /**
   * The type's ordinal, plus {@link #QUOTED}: one byte instead of a reference and a boolean keeps a scalar at 40
   * bytes rather than 48, and a large file holds a scalar for every 14 bytes of its text.
   */
  private final byte kind;

  YScalar(Range range, String value, Type type, boolean quoted) {
    this(range, value, type.ordinal() | (quoted ? QUOTED : 0));
  }

  YScalar(Range range, String value, int kind) {
    this.startLine = range.startLine();
    this.startColumn = range.startColumn();
    this.endLine = range.endLine();
    this.endColumn = range.endColumn();
    this.value = value;
    this.kind = (byte) kind;
  }

  @Override
  public Range range() {
    return Range.of(startLine, startColumn, endLine, endColumn);
  }

  /** The type and quotes in one number, as {@link #YScalar(Range, String, int)} takes them. */
  int kind() {
    return kind;
  }

  public String value() {
    return value;
  }

  public Type type() {
    return TYPES[kind & ~QUOTED];
  }

  /** Written in quotes or as a block scalar, so never resolved to a number, bool or null. */
  public boolean quoted() {
    return (kind & QUOTED) != 0;
  }

  /**
   * Whether the value is produced by a template engine ({@code {{ }}} of Helm, {@code ${PARAM}} of
   * OpenShift templates): such a value is unknown, never wrong.
   */
  public boolean isTemplated() {
    return value.contains("{{") || value.contains("${") || value.indexOf(TemplateMask.PLACEHOLDER) >= 0;
  }

  /**
   * The integer the API server decodes from this scalar as kubectl sends it: an INT by its radix ({@code 030} is
   * octal 24, {@code 0x1E} is 30), or a FLOAT with no fraction ({@code 30.0}); empty for anything else and for
   * values past a long.
   */
  public OptionalLong asLong() {
    return Scalars.integral(type(), value);
  }

  @Override
  public String toString() {
    return value;
  }
}
