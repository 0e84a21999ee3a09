package io.hooklens.app;

import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.LintResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Lints against a baseline, between a {@link Lint} and its sink: a finding the baseline records (as many times as
 * it records it) is held back and counted, and only new ones go on. The baseline is the one named for the run, else
 * the one each file's {@code .hooklens.yaml} names. Writing a baseline records every finding instead, and holds
 * them all back, as a lint against the new baseline would.
 */
public final class BaselineFilter implements Lint.Sink {
  /** A baseline that cannot be used: a usage error. */
  public static final class BaselineException extends Exception {
    public BaselineException(String message) {
      super(message, null, false, false);
    }
  }

  /** A baseline entry no finding of the files linted matched: fixed, or changed past recognition. */
  public record Stale(Path baseline, String file, String rule, String resource, String path, int count) {}

  /** One baseline file and what this run matched in it. */
  private static final class Loaded {
    final Path file;
    final Path base;
    final SortedMap<FindingKeys.Key, Integer> entries;
    final Map<FindingKeys.Key, Integer> used = new HashMap<>();
    final Set<String> files = new HashSet<>();

    Loaded(Path file, SortedMap<FindingKeys.Key, Integer> entries) {
      this.file = file;
      this.base = file.toAbsolutePath().normalize().getParent();
      this.entries = entries;
    }
  }

  private final ConfigResolver configs;
  private final Lint.Sink next;
  private final Loaded explicit;
  private final boolean writing;
  private final Map<Path, Loaded> named = new HashMap<>();
  private final Set<Path> refused = new HashSet<>();

  private BaselineFilter(ConfigResolver configs, Loaded explicit, boolean writing, Lint.Sink next) {
    this.configs = configs;
    this.explicit = explicit;
    this.writing = writing;
    this.next = next;
  }

  /** Against the baseline each file's configuration names; files whose configuration names none pass as they are. */
  public static BaselineFilter configured(ConfigResolver configs, Lint.Sink next) {
    return new BaselineFilter(configs, null, false, next);
  }

  /** Against one baseline, whatever the configurations name. */
  public static BaselineFilter of(Path baseline, ConfigResolver configs, Lint.Sink next) throws BaselineException {
    return new BaselineFilter(configs, new Loaded(baseline, Baseline.read(baseline)), false, next);
  }

  /** Recording every finding into a baseline that {@link #write()} writes. */
  public static BaselineFilter writing(Path baseline, ConfigResolver configs, Lint.Sink next) {
    return new BaselineFilter(configs, new Loaded(baseline, new TreeMap<>()), true, next);
  }

  @Override
  public void file(LintedFile f) {
    if (isBaseline(f.path())) {
      // A walk that finds the baseline itself, a JSON file, has no manifest to report there.
      return;
    }
    Loaded b = baselineOf(f);
    if (b == null) {
      next.file(f);
      return;
    }
    Path path = f.path();
    List<Finding> kept = new ArrayList<>();
    Map<Finding, List<String>> values = new HashMap<>();
    int held = 0;
    for (Finding finding : f.result().findings()) {
      FindingKeys.Key key = FindingKeys.of(b.base, path, f.result().document(), finding);
      if (writing) {
        b.entries.merge(key, 1, Integer::sum);
      }
      int used = b.used.getOrDefault(key, 0);
      if (used < b.entries.getOrDefault(key, 0)) {
        b.used.put(key, used + 1);
        held++;
      } else {
        kept.add(finding);
        if (f.valuesSets().containsKey(finding)) {
          values.put(finding, f.valuesSets().get(finding));
        }
      }
    }
    b.files.add(FindingKeys.relative(b.base, path));
    LintResult r = f.result();
    next.file(new LintedFile(f.displayName(), new LintResult(r.document(), List.copyOf(kept), r.suppressed(),
        r.failures()), values, OptionalInt.of(held)));
  }

  private boolean isBaseline(Path file) {
    if (explicit != null) {
      return file.equals(explicit.file.toAbsolutePath().normalize());
    }
    try {
      return file.equals(configs.forFile(file).baseline());
    } catch (ConfigResolver.ConfigException e) {
      return false;
    }
  }

  private Loaded baselineOf(LintedFile f) {
    if (explicit != null) {
      return explicit;
    }
    Path file;
    try {
      file = configs.forFile(Path.of(f.displayName())).baseline();
    } catch (ConfigResolver.ConfigException e) {
      // The lint resolved this file's configuration before, and said what was wrong with it.
      return null;
    }
    if (file == null || refused.contains(file)) {
      return null;
    }
    Loaded b = named.get(file);
    if (b == null) {
      try {
        b = new Loaded(file, Baseline.read(file));
      } catch (BaselineException e) {
        refused.add(file);
        next.problem(e.getMessage());
        return null;
      }
      named.put(file, b);
    }
    return b;
  }

  /** Writes the baseline recorded; returns how many findings it holds. */
  public int write() throws IOException {
    Baseline.write(explicit.file, explicit.entries);
    return explicit.entries.values().stream().mapToInt(Integer::intValue).sum();
  }

  /** The entries of the baselines used that no finding matched, in the files this run linted. */
  public List<Stale> stale() {
    List<Loaded> all = new ArrayList<>(named.values());
    if (explicit != null) {
      all.add(0, explicit);
    }
    List<Stale> out = new ArrayList<>();
    for (Loaded b : all) {
      b.entries.forEach((k, count) -> {
        int left = count - b.used.getOrDefault(k, 0);
        if (left > 0 && b.files.contains(k.file())) {
          String resource = k.kind().isEmpty() ? "" : (k.namespace().isEmpty() ? "" : k.namespace() + "/")
              + k.kind() + "/" + k.name();
          out.add(new Stale(b.file, k.file(), k.rule(), resource, k.path(), left));
        }
      });
    }
    return out;
  }

  /** Whether any baseline was used. */
  public boolean used() {
    return explicit != null || !named.isEmpty();
  }

  @Override
  public void problem(String message) {
    next.problem(message);
  }

  @Override
  public void note(String message) {
    next.note(message);
  }

  @Override
  public void fixed(String name, int count) {
    next.fixed(name, count);
  }
}
