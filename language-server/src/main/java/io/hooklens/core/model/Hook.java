package io.hooklens.core.model;

/** The two container lifecycle hooks. */
public enum Hook {
  POST_START("postStart"), PRE_STOP("preStop");

  private final String field;

  Hook(String field) {
    this.field = field;
  }

  public String field() {
    return field;
  }
}
