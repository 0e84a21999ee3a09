package io.hooklens.core.engine;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Documents one component of a rule's parameter record and gives its default. */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.PARAMETER, ElementType.FIELD, ElementType.METHOD})
public @interface Param {
  String description();

  /** The default, written as it would be in {@code .hooklens.yaml}. */
  String defaultValue();
}
