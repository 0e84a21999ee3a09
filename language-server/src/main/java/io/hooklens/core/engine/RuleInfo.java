package io.hooklens.core.engine;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** The metadata of a rule; the registry refuses a rule whose metadata is inconsistent. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface RuleInfo {
  /** Stable id such as {@code HL105}; never reused. */
  String id();

  /** Kebab-case name such as {@code lifecycle-sleep-out-of-range}. */
  String name();

  /** One line, plain text, no final period. */
  String summary();

  Severity severity();

  /** What to do about a finding; ends with a period. */
  String remediation();

  Message[] messages();

  /** A record of typed, documented parameters with defaults; {@link NoParams} when none. */
  Class<? extends Record> params() default NoParams.class;

  /** Whether the rule offers fixes; the engine refuses a fix from a rule that does not say so. */
  boolean fixable() default false;

  /** Older ids of this rule, still accepted in configuration and suppressions. */
  String[] aliases() default {};
}
