package io.hooklens.run.report;

/**
 * A signal sent to a container's main process.
 *
 * @param signal {@code SIGTERM} or {@code SIGKILL}
 */
public record Signal(String container, String signal, long atMs) {}
