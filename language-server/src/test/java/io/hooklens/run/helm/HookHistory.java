package io.hooklens.run.helm;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.Watchable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What happened to ConfigMaps, Pods and Jobs in every namespace, as the API server's watches tell it: each
 * creation, the first time a Pod or Job finished, and each deletion, in resourceVersion order (etcd's revision,
 * one total order over all kinds). A Job's own pods are left out: only what a chart names is a hook or release
 * object. Whoever acts on the cluster, Helm or hooklens, is seen the same way.
 */
final class HookHistory implements AutoCloseable {
  /** One change: etcd's revision, the namespace, and {@code created|Succeeded|Failed|deleting|deleted Kind/name}. */
  record Change(long revision, String namespace, String what) {}

  private static final String FLUSH = "zz-flush-";
  private static final AtomicInteger FLUSHES = new AtomicInteger();

  private final KubernetesClient client;
  private final List<Change> changes = new CopyOnWriteArrayList<>();
  private final Set<String> finished = ConcurrentHashMap.newKeySet();
  private final Set<String> deleting = ConcurrentHashMap.newKeySet();
  private final List<Watch> watches = new ArrayList<>();

  HookHistory(KubernetesClient client) {
    this.client = client;
    // Every watch starts at the same revision, so nothing between their starts is missed.
    String from = client.configMaps().inAnyNamespace().list().getMetadata().getResourceVersion();
    watch(client.configMaps().inAnyNamespace(), from);
    watch(client.pods().inAnyNamespace(), from);
    watch(client.batch().v1().jobs().inAnyNamespace(), from);
  }

  private <T extends HasMetadata> void watch(Watchable<T> kind, String from) {
    watches.add(kind.watch(new ListOptionsBuilder().withResourceVersion(from).build(), new Watcher<T>() {
      @Override
      public void eventReceived(Action action, T object) {
        record(action, object);
      }

      @Override
      public void onClose(WatcherException cause) {
        // Closed at the end; a watch that broke midway shows as changes missing from the comparison.
      }
    }));
  }

  private void record(Watcher.Action action, HasMetadata object) {
    boolean jobsPod = object.getMetadata().getOwnerReferences() != null && object.getMetadata().getOwnerReferences()
        .stream().anyMatch(o -> "Job".equals(o.getKind()));
    // Every namespace gets the cluster's CA from the controller manager; neither Helm nor hooklens makes it.
    if (jobsPod || "kube-root-ca.crt".equals(object.getMetadata().getName())) {
      return;
    }
    long revision = Long.parseLong(object.getMetadata().getResourceVersion());
    String namespace = object.getMetadata().getNamespace();
    String name = HasMetadata.getKind(object.getClass()) + "/" + object.getMetadata().getName();
    switch (action) {
      case ADDED -> changes.add(new Change(revision, namespace, "created " + name));
      case DELETED -> changes.add(new Change(revision, namespace, "deleted " + name));
      case MODIFIED -> {
        // A graceful deletion: asked for, and the object stays until its node confirms.
        if (object.getMetadata().getDeletionTimestamp() != null && deleting.add(object.getMetadata().getUid())) {
          changes.add(new Change(revision, namespace, "deleting " + name));
        }
        String end = end(object);
        if (end != null && finished.add(object.getMetadata().getUid())) {
          changes.add(new Change(revision, namespace, end + " " + name));
        }
      }
      default -> { }
    }
  }

  /** {@code Succeeded} or {@code Failed} once a Pod's phase or a Job's condition says so, as Helm waits for. */
  private static String end(HasMetadata object) {
    if (object instanceof Pod pod && pod.getStatus() != null) {
      String phase = pod.getStatus().getPhase();
      return "Succeeded".equals(phase) || "Failed".equals(phase) ? phase : null;
    }
    if (object instanceof Job job && job.getStatus() != null && job.getStatus().getConditions() != null) {
      for (var c : job.getStatus().getConditions()) {
        if ("True".equals(c.getStatus()) && "Complete".equals(c.getType())) {
          return "Succeeded";
        }
        if ("True".equals(c.getStatus()) && "Failed".equals(c.getType())) {
          return "Failed";
        }
      }
    }
    return null;
  }

  /**
   * The changes in a namespace so far, in revision order. First one object of each kind is created and deleted
   * there and awaited on every watch, so that what each watch had still to deliver has arrived.
   */
  List<String> of(String namespace) throws InterruptedException {
    String name = FLUSH + FLUSHES.incrementAndGet();
    List<HasMetadata> markers = List.of(
        new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().build(),
        // Bound to no node that exists, so that nothing runs it.
        new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec().withNodeName(name)
            .addNewContainer().withName("marker").withImage("none").endContainer().endSpec().build(),
        new JobBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec().withSuspend(true)
            .withNewTemplate().withNewSpec().withRestartPolicy("Never").addNewContainer().withName("marker")
            .withImage("none").endContainer().endSpec().endTemplate().endSpec().build());
    for (HasMetadata marker : markers) {
      client.resource(marker).inNamespace(namespace).create();
    }
    long deadline = System.currentTimeMillis() + 60_000;
    while (seen(namespace, name) < markers.size() && System.currentTimeMillis() < deadline) {
      Thread.sleep(20);
    }
    for (HasMetadata marker : markers) {
      client.resource(marker).inNamespace(namespace).withGracePeriod(0).delete();
    }
    if (seen(namespace, name) < markers.size()) {
      throw new AssertionError("the watches did not deliver the markers within 60 s: " + changes);
    }
    return changes.stream().filter(c -> namespace.equals(c.namespace()) && !c.what().contains("/" + FLUSH))
        .sorted(Comparator.comparingLong(Change::revision)).map(Change::what).toList();
  }

  private long seen(String namespace, String marker) {
    Set<String> kinds = new HashSet<>();
    changes.stream().filter(c -> namespace.equals(c.namespace()) && c.what().startsWith("created ")
        && c.what().endsWith("/" + marker)).forEach(c -> kinds.add(c.what()));
    return kinds.size();
  }

  @Override
  public void close() {
    watches.forEach(Watch::close);
  }
}
