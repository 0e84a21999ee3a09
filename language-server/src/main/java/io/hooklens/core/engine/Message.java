package io.hooklens.core.engine;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A message a rule may report, declared in {@link RuleInfo#messages()}. Placeholders are {@code {0}},
 * {@code {1}}... for the arguments given to {@link RuleContext#report}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({})
public @interface Message {
  String id();

  String text();
}
