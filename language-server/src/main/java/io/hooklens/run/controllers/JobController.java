package io.hooklens.run.controllers;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.hooklens.run.kube.EventRecorder;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The Job controller, as far as hooks need it: one pod at a time (parallelism and completions of 1), a new
 * pod after each failed one until {@code backoffLimit} (default 6) failures, {@code activeDeadlineSeconds}
 * counted from the Job's start, and the garbage collector's part for Jobs (deleting a Job deletes its pods,
 * as background propagation does). Writes the Job's status and the controller's events
 * ({@code SuccessfulCreate}, {@code SuccessfulDelete}, {@code Completed}, {@code BackoffLimitExceeded},
 * {@code DeadlineExceeded}). Everything goes through the API, so it needs no node agent; a real cluster has
 * its own controller and must not run this one.
 */
public final class JobController implements AutoCloseable {
  /** The Job controller's initial back-off before replacing a failed pod (then doubled, at most six minutes). */
  public static final Duration DEFAULT_BACKOFF = Duration.ofSeconds(10);
  static final String CONTROLLER_UID = "batch.kubernetes.io/controller-uid";
  static final String JOB_NAME = "batch.kubernetes.io/job-name";
  private static final String COMPONENT = "job-controller";
  private static final long DEFAULT_BACKOFF_LIMIT = 6;
  private static final Duration MAX_BACKOFF = Duration.ofMinutes(6);
  private static final Logger LOG = Logger.getLogger(JobController.class.getName());

  private final KubernetesClient client;
  private final EventRecorder events;
  private final Duration backoff;
  // One thread reconciles every Job, so two events about one Job never race.
  private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "hooklens-job-controller");
    thread.setDaemon(true);
    return thread;
  });
  private final List<Watch> watches = new ArrayList<>();
  private volatile boolean closed;

  private JobController(KubernetesClient client, Duration backoff) {
    this.client = client;
    this.events = new EventRecorder(client, null);
    this.backoff = backoff;
  }

  /** Starts the controller with the Job controller's own back-off. */
  public static JobController start(KubernetesClient client) {
    return start(client, DEFAULT_BACKOFF);
  }

  /** Starts the controller; {@code backoff} is the wait before the first replacement of a failed pod. */
  public static JobController start(KubernetesClient client, Duration backoff) {
    JobController controller = new JobController(client, backoff);
    controller.watchJobs();
    controller.watchPods();
    return controller;
  }

  private void watchJobs() {
    watches.add(client.batch().v1().jobs().inAnyNamespace().watch(new Watcher<Job>() {
      @Override
      public void eventReceived(Action action, Job job) {
        String namespace = job.getMetadata().getNamespace();
        if (action == Action.DELETED) {
          loop.execute(() -> deletePods(namespace, job.getMetadata().getUid()));
        } else {
          loop.execute(() -> reconcile(namespace, job.getMetadata().getName()));
        }
      }

      @Override
      public void onClose(WatcherException cause) {
        if (!closed) {
          LOG.log(Level.WARNING, "job watch closed; watching again", cause);
          watchJobs();
        }
      }
    }));
  }

  private void watchPods() {
    watches.add(client.pods().inAnyNamespace().watch(new Watcher<Pod>() {
      @Override
      public void eventReceived(Action action, Pod pod) {
        String job = pod.getMetadata().getLabels() == null ? null : pod.getMetadata().getLabels().get(JOB_NAME);
        if (job != null) {
          loop.execute(() -> reconcile(pod.getMetadata().getNamespace(), job));
        }
      }

      @Override
      public void onClose(WatcherException cause) {
        if (!closed) {
          LOG.log(Level.WARNING, "pod watch closed; watching again", cause);
          watchPods();
        }
      }
    }));
  }

  private void reconcile(String namespace, String name) {
    if (closed) {
      return;
    }
    try {
      Job job = client.batch().v1().jobs().inNamespace(namespace).withName(name).get();
      if (job != null && !finished(job)) {
        sync(job);
      }
    } catch (KubernetesClientException e) {
      if (!closed) {
        LOG.log(Level.WARNING, "cannot reconcile job " + namespace + "/" + name, e);
      }
    }
  }

  private static boolean finished(Job job) {
    return job.getStatus() != null && job.getStatus().getConditions() != null && job.getStatus().getConditions()
        .stream().anyMatch(c -> ("Complete".equals(c.getType()) || "Failed".equals(c.getType()))
            && "True".equals(c.getStatus()));
  }

  private void sync(Job job) {
    String namespace = job.getMetadata().getNamespace();
    List<Pod> pods = client.pods().inNamespace(namespace).withLabel(CONTROLLER_UID, job.getMetadata().getUid())
        .list().getItems();
    List<Pod> active = pods.stream().filter(p -> !terminal(p) && p.getMetadata().getDeletionTimestamp() == null)
        .toList();
    long succeeded = pods.stream().filter(p -> "Succeeded".equals(phase(p))).count();
    long failed = pods.stream().filter(p -> "Failed".equals(phase(p))).count();
    boolean onFailure = "OnFailure".equals(job.getSpec().getTemplate().getSpec().getRestartPolicy());
    // Under OnFailure the kubelet restarts the container in place; the controller counts those restarts.
    long restarts = onFailure ? active.stream().mapToLong(JobController::restarts).sum() : 0;
    Instant now = Instant.now();
    JobStatus old = job.getStatus() == null ? new JobStatus() : job.getStatus();
    Instant start = old.getStartTime() == null ? now : Instant.parse(old.getStartTime());
    long completions = job.getSpec().getCompletions() == null ? 1 : job.getSpec().getCompletions();
    long backoffLimit = job.getSpec().getBackoffLimit() == null ? DEFAULT_BACKOFF_LIMIT : job.getSpec().getBackoffLimit();
    Long deadline = job.getSpec().getActiveDeadlineSeconds();

    JobStatusBuilder status = new JobStatusBuilder().withStartTime(time(start)).withSucceeded((int) succeeded)
        .withFailed((int) failed).withConditions(old.getConditions() == null ? List.of() : old.getConditions());
    if (succeeded >= completions) {
      status.withActive(0).withCompletionTime(time(now)).addToConditions(condition("Complete", null, null, now));
      write(job, status.build());
      events.record(job, null, COMPONENT, false, "Completed", "Job completed");
      return;
    }
    if (deadline != null && !now.isBefore(start.plusSeconds(deadline))) {
      fail(job, status, active, now, "DeadlineExceeded", "Job was active longer than specified deadline");
      return;
    }
    if (failed + restarts > backoffLimit) {
      fail(job, status, active, now, "BackoffLimitExceeded", "Job has reached the specified backoff limit");
      return;
    }
    if (deadline != null) {
      long left = Duration.between(now, start.plusSeconds(deadline)).toMillis();
      loop.schedule(() -> reconcile(namespace, job.getMetadata().getName()), left, TimeUnit.MILLISECONDS);
    }
    int running = active.size();
    if (active.isEmpty()) {
      Instant lastFailure = pods.stream().filter(p -> "Failed".equals(phase(p))).map(JobController::finishedAt)
          .filter(Objects::nonNull).max(Instant::compareTo).orElse(null);
      Duration wait = failed == 0 || lastFailure == null ? Duration.ZERO
          : Duration.between(now, lastFailure.plus(backoff(failed)));
      if (wait.isNegative() || wait.isZero()) {
        createPod(job);
        running = 1;
      } else {
        loop.schedule(() -> reconcile(namespace, job.getMetadata().getName()), wait.toMillis(), TimeUnit.MILLISECONDS);
      }
    }
    write(job, status.withActive(running).build());
  }

  private Duration backoff(long failures) {
    Duration wait = backoff.multipliedBy(1L << Math.min(failures - 1, 20));
    return wait.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : wait;
  }

  private void fail(Job job, JobStatusBuilder status, List<Pod> active, Instant now, String reason, String message) {
    for (Pod pod : active) {
      deletePod(job, pod);
    }
    status.withActive(0).addToConditions(condition("Failed", reason, message, now));
    write(job, status.build());
    events.record(job, null, COMPONENT, true, reason, message);
  }

  private void createPod(Job job) {
    String name = job.getMetadata().getName() + "-" + suffix();
    ObjectMeta template = job.getSpec().getTemplate().getMetadata();
    Map<String, String> labels = new HashMap<>(template == null || template.getLabels() == null ? Map.of()
        : template.getLabels());
    String uid = job.getMetadata().getUid();
    labels.put(CONTROLLER_UID, uid);
    labels.put(JOB_NAME, job.getMetadata().getName());
    labels.put("controller-uid", uid);
    labels.put("job-name", job.getMetadata().getName());
    Pod pod = new PodBuilder().withNewMetadata().withName(name).withNamespace(job.getMetadata().getNamespace())
        .withLabels(labels).withAnnotations(template == null ? null : template.getAnnotations())
        .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion("batch/v1").withKind("Job")
            .withName(job.getMetadata().getName()).withUid(uid).withController(true).withBlockOwnerDeletion(true)
            .build())
        .endMetadata().withSpec(job.getSpec().getTemplate().getSpec()).build();
    client.pods().inNamespace(job.getMetadata().getNamespace()).resource(pod).create();
    events.record(job, null, COMPONENT, false, "SuccessfulCreate", "Created pod: " + name);
  }

  private void deletePod(Job job, Pod pod) {
    client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).delete();
    events.record(job, null, COMPONENT, false, "SuccessfulDelete", "Deleted pod: " + pod.getMetadata().getName());
  }

  // The garbage collector's background propagation: the Job is gone, its pods go after it.
  private void deletePods(String namespace, String uid) {
    if (closed) {
      return;
    }
    try {
      client.pods().inNamespace(namespace).withLabel(CONTROLLER_UID, uid).list().getItems().forEach(
          pod -> client.pods().inNamespace(namespace).withName(pod.getMetadata().getName()).delete());
    } catch (KubernetesClientException e) {
      if (!closed) {
        LOG.log(Level.WARNING, "cannot delete the pods of job " + uid, e);
      }
    }
  }

  // Writes the status only when it changed: the write is itself a Job event.
  private void write(Job job, JobStatus status) {
    JobStatus old = job.getStatus() == null ? new JobStatus() : job.getStatus();
    if (Serialization.asJson(old).equals(Serialization.asJson(status))) {
      return;
    }
    String patch = Serialization.asJson(List.of(Map.of("op", "add", "path", "/status", "value", status)));
    client.batch().v1().jobs().inNamespace(job.getMetadata().getNamespace()).withName(job.getMetadata().getName())
        .subresource("status").patch(PatchContext.of(PatchType.JSON), patch);
  }

  private static JobCondition condition(String type, String reason, String message, Instant now) {
    return new JobConditionBuilder().withType(type).withStatus("True").withReason(reason).withMessage(message)
        .withLastProbeTime(time(now)).withLastTransitionTime(time(now)).build();
  }

  private static String phase(Pod pod) {
    return pod.getStatus() == null ? null : pod.getStatus().getPhase();
  }

  private static boolean terminal(Pod pod) {
    return "Succeeded".equals(phase(pod)) || "Failed".equals(phase(pod));
  }

  private static long restarts(Pod pod) {
    return pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null ? 0
        : pod.getStatus().getContainerStatuses().stream().mapToLong(ContainerStatus::getRestartCount).sum();
  }

  private static Instant finishedAt(Pod pod) {
    if (pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null) {
      return null;
    }
    return pod.getStatus().getContainerStatuses().stream()
        .map(c -> c.getState() == null || c.getState().getTerminated() == null ? null
            : c.getState().getTerminated().getFinishedAt())
        .filter(Objects::nonNull).map(Instant::parse).max(Instant::compareTo).orElse(null);
  }

  private static String time(Instant instant) {
    return instant.truncatedTo(ChronoUnit.SECONDS).toString();
  }

  // The five lower-case letters and digits the API server appends to a generateName.
  private static String suffix() {
    String alphabet = "bcdfghjklmnpqrstvwxz2456789";
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < 5; i++) {
      s.append(alphabet.charAt(ThreadLocalRandom.current().nextInt(alphabet.length())));
    }
    return s.toString();
  }

  @Override
  public void close() {
    closed = true;
    watches.forEach(Watch::close);
    loop.shutdownNow();
  }
}
