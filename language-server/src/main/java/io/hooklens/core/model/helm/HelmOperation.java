package io.hooklens.core.model.helm;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/** A Helm operation: the hook events around what it does to the release's own objects. */
public enum HelmOperation {
  INSTALL("install", HelmEvent.PRE_INSTALL, HelmEvent.POST_INSTALL),
  UPGRADE("upgrade", HelmEvent.PRE_UPGRADE, HelmEvent.POST_UPGRADE),
  ROLLBACK("rollback", HelmEvent.PRE_ROLLBACK, HelmEvent.POST_ROLLBACK),
  UNINSTALL("uninstall", HelmEvent.PRE_DELETE, HelmEvent.POST_DELETE),
  /** {@code helm test}: only its hooks run, and nothing happens to the release. */
  TEST("test", null, HelmEvent.TEST);

  /** Helm 2's name of uninstall, which Helm 3 and 4 still take. */
  private static final String DELETE = "delete";

  /** The operations' command names, in declaration order. */
  public static final List<String> NAMES = Arrays.stream(values()).map(HelmOperation::command).toList();

  private final String command;
  private final HelmEvent pre;
  private final HelmEvent post;

  HelmOperation(String command, HelmEvent pre, HelmEvent post) {
    this.command = command;
    this.pre = pre;
    this.post = post;
  }

  /** The {@code helm} command that runs it. */
  public String command() {
    return command;
  }

  /** The event before the release step, or null when there is none. */
  public HelmEvent pre() {
    return pre;
  }

  /** The event after the release step. */
  public HelmEvent post() {
    return post;
  }

  /** Its events in the order they run. */
  public List<HelmEvent> events() {
    return Stream.of(pre, post).filter(e -> e != null).toList();
  }

  /** The operation a command name means ({@code delete} for uninstall), or null. */
  public static HelmOperation parse(String name) {
    if (DELETE.equals(name)) {
      return UNINSTALL;
    }
    for (HelmOperation o : values()) {
      if (o.command.equals(name)) {
        return o;
      }
    }
    return null;
  }
}
