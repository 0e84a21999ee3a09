package io.hooklens.run.report;

/**
 * A core/v1 Event about the pod, read through the API.
 *
 * @param type {@code Normal} or {@code Warning}
 * @param container the container it is about, or null for the pod
 * @param time its last timestamp (RFC 3339, whole seconds)
 */
public record EventRecord(String type, String reason, String message, String container, String time) {}
