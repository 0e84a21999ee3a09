package io.hooklens.core.model;

import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.core.yaml.YSeq;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Estimates how long a hook runs from what it says: the sleep action, literal {@code sleep} commands,
 * and sleeps in a shell script. Anything else adds nothing, so a result is exact or a lower bound.
 *
 * <p>Loops are a lower bound, not unbounded: a {@code while} loop in a preStop hook usually waits for
 * a drain that ends. Only a literal endless loop ({@code while true} with no {@code break} or
 * {@code exit}), {@code sleep infinity} and {@code tail -f} are unbounded.
 */
public final class HookDurations {
  private static final Set<String> SHELLS = Set.of("sh", "bash", "ash", "dash", "zsh", "ksh", "mksh");
  private static final Pattern DURATION = Pattern.compile("([0-9]*\\.?[0-9]+)([smhd]?)");
  private static final Pattern SEGMENT_SPLIT =
      Pattern.compile("&&|\\|\\||;|\\n|\\||\\bthen\\b|\\bdo\\b|\\belse\\b|\\bdone\\b|\\bfi\\b");
  private static final Pattern ENDLESS_LOOP =
      Pattern.compile("\\b(while\\s+(true|:|\\[\\s*1\\s*\\])|until\\s+false)\\b");
  private static final Pattern LOOP = Pattern.compile("\\b(while|until|for)\\b");
  private static final Pattern LOOP_EXIT = Pattern.compile("\\b(break|exit|return)\\b");
  // Compiled once: a language server measures every hook on every edit.
  private static final Pattern TAIL_FOLLOW = Pattern.compile("\\btail\\s+(-[a-zA-Z]*f|--follow)");
  private static final Pattern WHITESPACE = Pattern.compile("\\s+");
  private static final Pattern QUOTE_ENDS = Pattern.compile("^[\"']|[\"']$");

  private HookDurations() {}

  /** The duration of a lifecycle handler. */
  public static Duration of(Handler h) {
    YMap m = h.map();
    if (m == null) {
      return Duration.UNKNOWN;
    }
    YMap sleep = m.map("sleep");
    if (sleep != null) {
      YScalar s = sleep.scalar("seconds");
      OptionalLong v = s == null ? OptionalLong.empty() : s.asLong();
      return v.isPresent() ? Duration.exactly(Math.max(0, v.getAsLong())) : Duration.UNKNOWN;
    }
    YMap exec = m.map("exec");
    if (exec != null) {
      return ofCommand(exec.get("command"));
    }
    return Duration.UNKNOWN;
  }

  /** The duration of an exec-style command list ({@code exec.command}, {@code execNewPod.command}). */
  public static Duration ofCommand(YNode command) {
    List<String> argv = argv(command);
    if (argv == null || argv.isEmpty()) {
      return Duration.UNKNOWN;
    }
    String program = basename(argv.get(0));
    if (program.equals("busybox") && argv.size() > 1) {
      argv = argv.subList(1, argv.size());
      program = basename(argv.get(0));
    }
    if (program.equals("sleep")) {
      return sleepArgs(argv.subList(1, argv.size()));
    }
    if (program.equals("tail") && argv.contains("-f")) {
      return Duration.UNBOUNDED;
    }
    String script = shellScript(argv);
    return script == null ? Duration.UNKNOWN : ofScript(script);
  }

  /** The script of a {@code sh -c SCRIPT} style command, or null. */
  public static String shellScript(List<String> argv) {
    if (argv.isEmpty() || !SHELLS.contains(basename(argv.get(0)))) {
      return null;
    }
    for (int i = 1; i + 1 < argv.size(); i++) {
      String a = argv.get(i);
      if (a.startsWith("-") && !a.startsWith("--") && a.indexOf('c') > 0) {
        return argv.get(i + 1);
      }
    }
    return null;
  }

  /** Sums the foreground sleeps of a shell script. */
  public static Duration ofScript(String script) {
    if (script.contains("sleep infinity") || TAIL_FOLLOW.matcher(script).find()) {
      return Duration.UNBOUNDED;
    }
    if (ENDLESS_LOOP.matcher(script).find() && !LOOP_EXIT.matcher(script).find()) {
      return Duration.UNBOUNDED;
    }
    boolean exact = !LOOP.matcher(script).find();
    Duration total = Duration.ZERO;
    for (String segment : SEGMENT_SPLIT.split(script)) {
      // "a & b": a runs in the background, only b is waited for.
      int amp = segment.lastIndexOf('&');
      String seg = (amp >= 0 ? segment.substring(amp + 1) : segment).trim();
      List<String> words = List.of(WHITESPACE.split(seg));
      if (words.isEmpty()) {
        continue;
      }
      int first = 0;
      if (words.get(0).equals("exec") || words.get(0).equals("busybox")) {
        first = 1;
      }
      if (first < words.size() && basename(words.get(first)).equals("sleep")) {
        total = total.plus(sleepArgs(words.subList(first + 1, words.size())));
      } else if (!seg.isEmpty()) {
        exact = false;
      }
    }
    return exact ? total : total.atLeast();
  }

  private static Duration sleepArgs(List<String> args) {
    if (args.isEmpty()) {
      return Duration.UNKNOWN;
    }
    double sum = 0;
    for (String a : args) {
      String arg = QUOTE_ENDS.matcher(a).replaceAll("");
      if (arg.equals("infinity") || arg.equals("inf")) {
        return Duration.UNBOUNDED;
      }
      Matcher m = DURATION.matcher(arg);
      if (!m.matches()) {
        return new Duration(sum, false, false);
      }
      double n = Double.parseDouble(m.group(1));
      sum += switch (m.group(2)) {
        case "m" -> n * 60;
        case "h" -> n * 3600;
        case "d" -> n * 86400;
        default -> n;
      };
    }
    return Duration.exactly(sum);
  }

  /** The strings of a command list; null when it is not a list of known scalars. */
  public static List<String> argv(YNode command) {
    if (!(command instanceof YSeq seq)) {
      return null;
    }
    List<String> out = new ArrayList<>(seq.size());
    for (YNode n : seq.items()) {
      if (!(n instanceof YScalar s) || s.value().contains("{{")) {
        return null;
      }
      out.add(s.value());
    }
    return out;
  }

  public static String basename(String path) {
    String p = path.trim();
    int slash = p.lastIndexOf('/');
    return (slash >= 0 ? p.substring(slash + 1) : p).toLowerCase(Locale.ROOT);
  }
}
