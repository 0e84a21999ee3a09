package io.hooklens.run;

import io.hooklens.core.yaml.Range;

/**
 * A hook the runner will run.
 *
 * @param hook {@code postStart} or {@code preStop}
 * @param description what it runs: the command, the request or the wait
 * @param range the handler in the file, from its key to the end of its value
 */
public record PlannedHook(String container, String hook, String description, Range range) {}
