package io.hooklens.run.report;

/**
 * A container of a step's pod.
 *
 * @param command its command line as planned
 * @param runningMs when it became Running (after its postStart returned)
 * @param reason the terminated state's reason ({@code Completed}, {@code Error}, {@code StartError})
 */
public record ContainerResult(String name, String command, Long startedMs, Long runningMs, Long exitedMs,
    Integer exitCode, String reason) {}
