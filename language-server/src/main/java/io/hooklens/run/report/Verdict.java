package io.hooklens.run.report;

import java.util.List;

/**
 * What a hook's run means.
 *
 * @param ok the hook ran and succeeded and the app was not SIGKILLed
 * @param text one sentence, naming the rule it confirms
 * @param rules the rule ids the outcome confirms
 * @param predicted what static analysis said about the same hook
 */
public record Verdict(String container, String hook, boolean ok, String text, List<String> rules,
    List<Prediction> predicted) {}
