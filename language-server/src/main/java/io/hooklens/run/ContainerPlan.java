package io.hooklens.run;

import java.util.List;

/**
 * A container of a planned pod.
 *
 * @param command its command and args, empty when it has no command (and so cannot run)
 * @param hooks the selected hooks of this container
 */
public record ContainerPlan(String name, String image, List<String> command, List<PlannedHook> hooks) {}
