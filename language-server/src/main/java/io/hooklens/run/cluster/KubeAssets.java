package io.hooklens.run.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A folder of control-plane binaries, as envtest knows it: {@code etcd} and {@code kube-apiserver} at least
 * (what {@code setup-envtest use} downloads), with {@code kube-controller-manager} and {@code kube-scheduler} when
 * {@code scripts/kube-assets.sh} built them. Looked for in {@code --kube-assets}, then {@code KUBEBUILDER_ASSETS},
 * then the newest complete version folder of that script's cache.
 *
 * @param from where the folder was named, in words
 */
public record KubeAssets(Path dir, String from) {
  public static final String ETCD = "etcd";
  public static final String API_SERVER = "kube-apiserver";
  public static final String CONTROLLER_MANAGER = "kube-controller-manager";
  public static final String SCHEDULER = "kube-scheduler";
  private static final List<String> REQUIRED = List.of(ETCD, API_SERVER);
  private static final List<String> ALL = List.of(ETCD, API_SERVER, CONTROLLER_MANAGER, SCHEDULER);
  private static final Pattern VERSION = Pattern.compile("v?\\d+\\.\\d+\\.\\d+[-+.\\w]*");
  private static final long VERSION_SECONDS = 20;

  /** How to get the binaries, for a message that says they are missing. */
  public static final String HOW_TO_GET = "get them with setup-envtest (go install "
      + "sigs.k8s.io/controller-runtime/tools/setup-envtest@latest; then setup-envtest use 1.36.x -p path, and pass "
      + "that folder as --kube-assets or KUBEBUILDER_ASSETS), or build all four (kube-controller-manager and "
      + "kube-scheduler too) into a per-machine cache with scripts/kube-assets.sh from the source repository";

  /** The binaries were not found: why, in words. */
  public static final class Missing extends Exception {
    Missing(String message) {
      super(message);
    }
  }

  /**
   * Finds the folder.
   *
   * @param given {@code --kube-assets}, or null
   * @param environment the process's environment ({@code KUBEBUILDER_ASSETS}, {@code HOOKLENS_KUBE_CACHE},
   *     {@code HOME})
   * @throws Missing when no folder holds etcd and kube-apiserver
   */
  public static KubeAssets find(Path given, Map<String, String> environment) throws Missing {
    if (given != null) {
      return complete(new KubeAssets(given, "--kube-assets"));
    }
    String envtest = environment.get("KUBEBUILDER_ASSETS");
    if (envtest != null && !envtest.isBlank()) {
      return complete(new KubeAssets(Path.of(envtest), "KUBEBUILDER_ASSETS"));
    }
    Path cache = cache(environment);
    try (Stream<Path> versions = Files.list(cache)) {
      Optional<Path> newest = versions.filter(v -> v.getFileName().toString().matches("v\\d+\\.\\d+\\.\\d+"))
          .filter(v -> REQUIRED.stream().allMatch(b -> Files.isExecutable(v.resolve(b))))
          .max(Comparator.comparing(KubeAssets::versionKey));
      if (newest.isPresent()) {
        return new KubeAssets(newest.get(), "the cache of scripts/kube-assets.sh");
      }
    } catch (IOException e) {
      // No cache folder: nothing built here yet.
    }
    throw new Missing("no control-plane binaries: --kube-assets and KUBEBUILDER_ASSETS are not set and " + cache
        + " holds no complete version");
  }

  private static KubeAssets complete(KubeAssets assets) throws Missing {
    List<String> missing = REQUIRED.stream().filter(b -> !Files.isExecutable(assets.binary(b))).toList();
    if (!missing.isEmpty()) {
      throw new Missing("no " + String.join(" and no ", missing) + " in " + assets.dir() + " (" + assets.from()
          + ")");
    }
    return assets;
  }

  /** Where scripts/kube-assets.sh keeps its builds: {@code HOOKLENS_KUBE_CACHE}, else ~/.cache/hooklens/kube. */
  static Path cache(Map<String, String> environment) {
    String cache = environment.get("HOOKLENS_KUBE_CACHE");
    if (cache != null && !cache.isBlank()) {
      return Path.of(cache);
    }
    return Path.of(environment.getOrDefault("HOME", System.getProperty("user.home")), ".cache", "hooklens", "kube");
  }

  private static String versionKey(Path folder) {
    StringBuilder key = new StringBuilder();
    for (String part : folder.getFileName().toString().substring(1).split("\\.")) {
      key.append("%08d".formatted(Integer.parseInt(part)));
    }
    return key.toString();
  }

  public Path binary(String name) {
    return dir.resolve(name);
  }

  public boolean has(String name) {
    return Files.isExecutable(binary(name));
  }

  /** The binaries present, each with the version it prints ({@code --version}), asked of all at once. */
  public Map<String, String> versions() {
    Map<String, Process> asked = new LinkedHashMap<>();
    for (String name : ALL) {
      if (has(name)) {
        try {
          asked.put(name, new ProcessBuilder(binary(name).toString(), "--version").redirectErrorStream(true).start());
        } catch (IOException e) {
          asked.put(name, null);
        }
      }
    }
    Map<String, String> versions = new LinkedHashMap<>();
    for (Map.Entry<String, Process> a : asked.entrySet()) {
      versions.put(a.getKey(), version(a.getValue()));
    }
    return versions;
  }

  private static String version(Process process) {
    if (process == null) {
      return "unknown version";
    }
    try {
      String out = new String(process.getInputStream().readNBytes(4096), StandardCharsets.UTF_8);
      if (!process.waitFor(VERSION_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
      Matcher m = VERSION.matcher(out);
      return m.find() ? m.group() : "unknown version";
    } catch (IOException e) {
      return "unknown version";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      return "unknown version";
    }
  }

  /** Which of the optional binaries are absent, for a note on what stands in for them. */
  public List<String> absent() {
    List<String> absent = new ArrayList<>();
    for (String name : ALL) {
      if (!has(name)) {
        absent.add(name);
      }
    }
    return absent;
  }
}
