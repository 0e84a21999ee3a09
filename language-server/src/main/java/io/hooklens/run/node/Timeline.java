package io.hooklens.run.node;

import io.hooklens.run.kube.BoundedOutput;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * What the node did and when, on the monotonic clock: hook starts and ends, signals, exits. Reports and
 * timelines read it; the API only gets second-precision timestamps.
 */
public final class Timeline {
  /** A point on the timeline. */
  public enum Mark {
    CONTAINER_STARTED, POST_START_STARTED, POST_START_ENDED, RUNNING,
    DELETE_OBSERVED, PRE_STOP_STARTED, PRE_STOP_ENDED, PRE_STOP_ABANDONED,
    /** The container's stop signal was sent: its name, then the stop timeout, in the detail. */
    STOP_SIGNAL,
    SIGKILL, EXITED, WARNING,
    /** The container became Ready, or stopped being Ready, as its startup and readiness probes decided. */
    READY, NOT_READY,
    /** A probe failed (its Unhealthy event's message), or its failures had the container killed (Killing's). */
    PROBE_FAILED, PROBE_KILL,
    /**
     * What a container's run printed, once the run that just exited has been read to its end; the detail is the run's
     * restartCount.
     */
    OUTPUT
  }

  /**
   * One entry. {@code nanos} counts from the timeline's origin; {@code failed} is set on hook ends that
   * failed; {@code detail} is a message or exit status, {@code output} the end of what a hook (or, on
   * {@link Mark#OUTPUT}, a container) printed, after {@code outputDroppedBytes} bytes that were not kept.
   */
  public record Entry(long nanos, String pod, String container, Mark mark, boolean failed, String detail,
      String output, long outputDroppedBytes) {
    public double seconds() {
      return nanos / 1e9;
    }
  }

  private final long origin = System.nanoTime();
  private final List<Entry> entries = new ArrayList<>();
  private final List<Consumer<Entry>> listeners = new CopyOnWriteArrayList<>();

  /** The signal an entry of {@link Mark#STOP_SIGNAL} or {@link Mark#SIGKILL} stands for. */
  public static String signal(Entry entry) {
    return entry.mark() == Mark.STOP_SIGNAL ? entry.detail().substring(0, entry.detail().indexOf(',')) : "SIGKILL";
  }

  /** Now, in nanoseconds since the timeline's origin: the clock of its entries, for times kept elsewhere. */
  public long now() {
    return System.nanoTime() - origin;
  }

  Entry add(String pod, String container, Mark mark, boolean failed, String detail, BoundedOutput.Tail output) {
    Entry entry = new Entry(System.nanoTime() - origin, pod, container, mark, failed, detail, output.text(),
        output.droppedBytes());
    synchronized (entries) {
      entries.add(entry);
    }
    for (Consumer<Entry> listener : listeners) {
      listener.accept(entry);
    }
    return entry;
  }

  /** Calls {@code listener} with every entry added from now on, on the thread that adds it. */
  public void listen(Consumer<Entry> listener) {
    listeners.add(listener);
  }

  /** The monotonic time ({@link System#nanoTime()}) of the timeline's origin, to place other clocks on it. */
  public long origin() {
    return origin;
  }

  Entry add(String pod, String container, Mark mark, String detail) {
    return add(pod, container, mark, false, detail, BoundedOutput.Tail.EMPTY);
  }

  public List<Entry> entries() {
    synchronized (entries) {
      return List.copyOf(entries);
    }
  }

  /** Entries of one pod ({@code namespace/name}), in order. */
  public List<Entry> of(String pod) {
    List<Entry> result = new ArrayList<>();
    for (Entry entry : entries()) {
      if (entry.pod().equals(pod)) {
        result.add(entry);
      }
    }
    return result;
  }

  /** The first entry with this mark for the pod and container (a null container matches any). */
  public Optional<Entry> first(String pod, String container, Mark mark) {
    return of(pod).stream()
        .filter(e -> e.mark() == mark && (container == null || container.equals(e.container())))
        .findFirst();
  }
}
