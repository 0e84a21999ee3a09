package io.hooklens.run.report;

import java.util.List;

/**
 * One step of a run. Times are milliseconds since the step began (the pod was created); {@code null}
 * when it did not happen or could not be seen.
 *
 * @param kind {@code pod}: a pod created and deleted
 * @param trigger what ends the step: {@code delete}
 * @param resource the object the pod comes from, {@code Kind/name}
 * @param graceSeconds the pod's grace period
 * @param deleteMs when the pod was deleted
 * @param goneMs when the pod was gone from the API
 * @param timing {@code node}: times from the node that ran the pod (monotonic, exact); {@code api}: as the
 *     API showed them to the runner (hook ends are not visible)
 */
public record Step(String kind, String trigger, String resource, String namespace, String pod, long graceSeconds,
    Long deleteMs, Long goneMs, String timing, List<ContainerResult> containers, List<HookResult> hooks,
    List<Signal> signals, List<EventRecord> events, List<Verdict> verdicts, List<String> notes) {}
