package io.hooklens.run.node;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Who a container runs as, decided as the kubelet and containerd decide it. The kubelet takes
 * {@code runAsUser} (the container's, else the pod's) or, without it, the user part of the image's {@code User}
 * (kuberuntime generateContainerConfig, getImageUser: the image's group part is not passed on), refuses a root
 * user under {@code runAsNonRoot} (verifyRunAsNonRoot); the runtime then takes {@code runAsGroup}, else the
 * primary group of that user in the image's {@code /etc/passwd}, else 0 (containerd oci.WithUser).
 */
final class ContainerUser {
  // Far above any real account list; an image's file is read whole.
  private static final long MAX_PASSWD_BYTES = 1 << 20;

  private ContainerUser() {
  }

  /** Why the container cannot be created: the waiting reason and the message a cluster gives. */
  static final class Refused extends Exception {
    final String reason;

    Refused(String reason, String message) {
      super(message, null, false, false);
      this.reason = reason;
    }
  }

  /** @param image the container's image, or null when it runs on the host's files (which have no user of its) */
  static Sandbox.Identity of(Pod pod, Container container, Image image) throws Refused {
    SecurityContext own = container.getSecurityContext();
    PodSecurityContext pods = pod.getSpec().getSecurityContext();
    Long runAsUser = pick(own, pods, SecurityContext::getRunAsUser, PodSecurityContext::getRunAsUser);
    Long runAsGroup = pick(own, pods, SecurityContext::getRunAsGroup, PodSecurityContext::getRunAsGroup);
    Boolean nonRoot = pick(own, pods, SecurityContext::getRunAsNonRoot, PodSecurityContext::getRunAsNonRoot);
    String imageUser = image == null ? "" : image.user().split(":", 2)[0];
    Long imageUid = imageUser.isEmpty() ? Long.valueOf(0) : numeric(imageUser);
    if (Boolean.TRUE.equals(nonRoot)) {
      verifyNonRoot(pod, container, runAsUser, imageUid, imageUser);
    }
    Path root = image == null ? null : image.root();
    if (runAsUser == null && imageUid == null) {
      String[] entry = passwd(root, e -> e[0].equals(imageUser)).orElseThrow(() -> new Refused(
          "CreateContainerError", "failed to create containerd container: no users found: the image has no user "
          + imageUser + " in its /etc/passwd"));
      return new Sandbox.Identity(Long.parseLong(entry[2]), runAsGroup != null ? runAsGroup : Long.parseLong(entry[3]));
    }
    long uid = runAsUser != null ? runAsUser : imageUid;
    long gid = runAsGroup != null ? runAsGroup
        : passwd(root, e -> e[2].equals(String.valueOf(uid))).map(e -> Long.parseLong(e[3])).orElse(0L);
    return new Sandbox.Identity(uid, gid);
  }

  // The kubelet's words, pod named as format.Pod does.
  private static void verifyNonRoot(Pod pod, Container c, Long runAsUser, Long imageUid, String imageUser)
      throws Refused {
    String who = " (pod: \"" + pod.getMetadata().getName() + "_" + pod.getMetadata().getNamespace() + "("
        + pod.getMetadata().getUid() + ")\", container: " + c.getName() + ")";
    if (runAsUser != null) {
      if (runAsUser == 0) {
        throw new Refused("CreateContainerConfigError", "container's runAsUser breaks non-root policy" + who);
      }
    } else if (imageUid == null) {
      throw new Refused("CreateContainerConfigError", "container has runAsNonRoot and image has non-numeric user ("
          + imageUser + "), cannot verify user is non-root" + who);
    } else if (imageUid == 0) {
      throw new Refused("CreateContainerConfigError", "container has runAsNonRoot and image will run as root" + who);
    }
  }

  private static <T> T pick(SecurityContext own, PodSecurityContext pods, Function<SecurityContext, T> mine,
      Function<PodSecurityContext, T> pod) {
    T value = own == null ? null : mine.apply(own);
    return value != null || pods == null ? value : pod.apply(pods);
  }

  private static Long numeric(String s) {
    if (s.isEmpty() || s.length() > 10 || !s.chars().allMatch(Character::isDigit)) {
      return null;
    }
    return Long.parseLong(s);
  }

  /** The first {@code /etc/passwd} entry of the image that {@code match} accepts, split at its colons. */
  private static Optional<String[]> passwd(Path root, Predicate<String[]> match) {
    if (root == null) {
      return Optional.empty();
    }
    List<String> lines;
    try {
      // An unpacked root may hold links that point out of it: the host's accounts are not the image's.
      Path file = root.resolve("etc/passwd").toRealPath();
      if (!file.startsWith(root.toRealPath()) || !Files.isRegularFile(file) || Files.size(file) > MAX_PASSWD_BYTES) {
        return Optional.empty();
      }
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
    return lines.stream().map(l -> l.split(":", -1))
        .filter(e -> e.length >= 4 && numeric(e[2]) != null && numeric(e[3]) != null).filter(match).findFirst();
  }
}
