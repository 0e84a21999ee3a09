package io.hooklens.core.model.openshift;

import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.Spelling;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.core.yaml.YSeq;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * A DeploymentConfig lifecycle hook (or a hook written in the same shape where it does not belong).
 *
 * @param owner the DeploymentConfig (or Deployment) that carries it
 * @param form where it is written
 * @param params the params block holding it ({@code recreateParams}, {@code rollingParams} or
 *     {@code lifecycle})
 * @param phase when the deployer runs it
 * @param key the phase key ({@code pre:}), where findings about the hook as a whole go
 * @param hook the hook mapping, or null when the value is not a mapping
 */
public record DcHook(Resource owner, Form form, String params, DcPhase phase, YScalar key, YMap hook) {
  /** Where a hook is written. */
  public enum Form {
    /** {@code spec.strategy.recreateParams} or {@code rollingParams}: today's apps.openshift.io/v1 API. */
    PARAMS,
    /** {@code spec.strategy.lifecycle}: the 2015 design proposal, never part of apps.openshift.io/v1. */
    PROPOSAL
  }

  /** {@code activeDeadlineSeconds} the API server sets when it is absent (MaxDeploymentDurationSeconds, 6 h). */
  public static final long DEFAULT_ACTIVE_DEADLINE_SECONDS = 21600;
  /** {@code timeoutSeconds} the API server sets in both params blocks when it is absent. */
  public static final long DEFAULT_TIMEOUT_SECONDS = 600;

  /** Whether a resource is an OpenShift DeploymentConfig (apps.openshift.io/v1 or the legacy v1 group). */
  public static boolean isDeploymentConfig(Resource r) {
    return "DeploymentConfig".equals(r.kind()) && r.apiVersion() != null
        && (r.apiVersion().startsWith("apps.openshift.io/") || r.apiVersion().equals("v1"));
  }

  /** {@code spec.strategy} of a resource, or null. */
  public static YMap strategy(Resource r) {
    YMap spec = r.root().map("spec");
    return spec == null ? null : spec.map("strategy");
  }

  /** The strategy type, defaulted to Rolling as the API server does; null when templated. */
  public static String strategyType(Resource r) {
    YMap s = strategy(r);
    YScalar t = s == null ? null : s.scalar("type");
    if (t == null || t.type() == YScalar.Type.NULL) {
      return "Rolling";
    }
    return t.isTemplated() ? null : t.value();
  }

  /** The strategy's {@code type} value as written, or null when it is left to its default. */
  public static YScalar strategyTypeNode(Resource r) {
    YMap s = strategy(r);
    YScalar t = s == null ? null : s.scalar("type");
    return t == null || t.type() == YScalar.Type.NULL ? null : t;
  }

  /** The hooks of a resource, in both forms, in document order. */
  public static List<DcHook> of(Resource r) {
    List<DcHook> out = new ArrayList<>();
    YMap strategy = strategy(r);
    if (strategy == null) {
      return out;
    }
    for (String params : List.of("recreateParams", "rollingParams")) {
      collect(r, Form.PARAMS, params, strategy.map(params), out);
    }
    collect(r, Form.PROPOSAL, "lifecycle", strategy.map("lifecycle"), out);
    return out;
  }

  private static void collect(Resource r, Form form, String params, YMap block, List<DcHook> out) {
    if (block == null) {
      return;
    }
    for (DcPhase phase : DcPhase.values()) {
      YMap.Entry e = block.entry(phase.key());
      if (e != null && !(e.value() instanceof YScalar s && s.type() == YScalar.Type.NULL)) {
        out.add(new DcHook(r, form, params, phase, e.key(), e.value().asMap()));
      }
    }
  }

  /** {@code execNewPod} of the hook, or null. */
  public YMap execNewPod() {
    return hook == null ? null : hook.map("execNewPod");
  }

  /** {@code tagImages} of the hook, or null. */
  public YSeq tagImages() {
    return hook == null ? null : hook.seq("tagImages");
  }

  /** The fields of openshift/api's {@code LifecycleHook}. */
  private static final List<String> FIELDS = List.of("failurePolicy", "execNewPod", "tagImages");

  /**
   * Whether the hook lacks {@code field} but has a key that misspells it ({@code failurPolicy}): HL323 reports
   * that key with its correction, and a rule about the missing field says nothing more.
   */
  public boolean misspells(String field) {
    return Spelling.misspells(hook, field, FIELDS);
  }

  /** {@code failurePolicy} as written, or null. */
  public YScalar failurePolicy() {
    return hook == null ? null : hook.scalar("failurePolicy");
  }

  /**
   * Whether the API server validates this hook when it validates the owner: a params-form hook in the block its
   * strategy type uses, and in either block for Custom or when the type is not known (a template expression, or
   * a value the API rejects anyway). {@code rollingParams.mid} is not a field of the API and never counts.
   */
  public boolean validated() {
    if (form != Form.PARAMS || (params.equals("rollingParams") && phase == DcPhase.MID)) {
      return false;
    }
    String type = strategyType(owner);
    if ("Rolling".equals(type)) {
      return params.equals("rollingParams");
    }
    return !"Recreate".equals(type) || params.equals("recreateParams");
  }

  /** The {@link #validated()} hooks of every DeploymentConfig of a document, in document order. */
  public static List<DcHook> validatedIn(HookDocument doc) {
    return in(doc).stream().filter(DcHook::validated).toList();
  }

  /** The hooks of every DeploymentConfig of a document, in both forms, in document order. */
  public static List<DcHook> in(HookDocument doc) {
    List<DcHook> out = new ArrayList<>();
    for (Resource r : doc.resources()) {
      if (isDeploymentConfig(r)) {
        out.addAll(of(r));
      }
    }
    return out;
  }

  /**
   * Names of one container list of the template ({@code containers} or {@code initContainers}) when every one of
   * them is known. Null when they cannot be known: {@code containers} is missing, the value is not a list, or a
   * name is missing or a template expression (it could then match anything). A missing {@code initContainers}
   * list is empty.
   */
  public List<String> knownContainerNames(String list) {
    YMap ps = podSpec();
    YNode cs = ps == null ? null : ps.get(list);
    if (cs == null || cs instanceof YScalar blank && blank.type() == YScalar.Type.NULL) {
      return "containers".equals(list) ? null : List.of();
    }
    if (!(cs instanceof YSeq seq)) {
      return null;
    }
    List<String> names = new ArrayList<>();
    for (YNode c : seq.items()) {
      YScalar name = c instanceof YMap m ? m.scalar("name") : null;
      if (name == null || name.type() == YScalar.Type.NULL || name.isTemplated()) {
        return null;
      }
      names.add(name.value());
    }
    return names;
  }

  /**
   * Whether the hook sets both execNewPod and a non-empty tagImages list: the API then rejects it without reading
   * either action (HL303), so the checks of each action stay quiet.
   */
  public boolean setsBothActions() {
    return hook != null && !isBlank(hook.get("execNewPod")) && hook.get("tagImages") instanceof YSeq s
        && s.size() > 0;
  }

  /** Whether a value is absent, null or the empty string, which the API treats alike for string fields. */
  public static boolean isBlank(YNode value) {
    return value == null || value instanceof YScalar s && (s.type() == YScalar.Type.NULL || s.value().isEmpty());
  }

  /** The pod template spec of the owner, or null. */
  public YMap podSpec() {
    YMap spec = owner.root().map("spec");
    YMap template = spec == null ? null : spec.map("template");
    return template == null ? null : template.map("spec");
  }

  /**
   * The key of one list of the pod template ({@code containers}, {@code initContainers} or {@code volumes}), where
   * a finding about a name missing from it points as its related place; null when the template does not write it.
   */
  public YScalar templateListKey(String list) {
    YMap ps = podSpec();
    YMap.Entry e = ps == null ? null : ps.entry(list);
    return e == null ? null : e.key();
  }

  /** The {@code name} value of the container called {@code name} in one list of the template, or null. */
  public YScalar containerNameNode(String list, String name) {
    YMap ps = podSpec();
    YSeq cs = ps == null ? null : ps.seq(list);
    for (int i = 0; cs != null && i < cs.size(); i++) {
      YScalar n = cs.get(i) instanceof YMap m ? m.scalar("name") : null;
      if (n != null && name.equals(n.value())) {
        return n;
      }
    }
    return null;
  }

  /** Names of the template's containers of one list ({@code containers} or {@code initContainers}). */
  public List<String> containerNames(String list) {
    List<String> names = new ArrayList<>();
    YMap ps = podSpec();
    YSeq cs = ps == null ? null : ps.seq(list);
    if (cs != null) {
      for (YNode c : cs.items()) {
        if (c instanceof YMap m && m.string("name") != null) {
          names.add(m.string("name"));
        }
      }
    }
    return names;
  }

  /** {@code recreateParams.pre} style path, for messages. */
  public String describe() {
    return (form == Form.PROPOSAL ? "strategy.lifecycle." : params + ".") + phase;
  }

  /**
   * Whether a resource is a DeploymentConfig of OpenShift's 2015 pre-release APIs ({@code v1beta1},
   * {@code v1beta3}), which no cluster serves any more; its hooks are still what such a file means once moved to
   * apps.openshift.io/v1.
   */
  public static boolean isLegacyDeploymentConfig(Resource r) {
    return "DeploymentConfig".equals(r.kind())
        && ("v1beta1".equals(r.apiVersion()) || "v1beta3".equals(r.apiVersion()));
  }

  /**
   * The hooks of a legacy DeploymentConfig in both forms, in document order, wherever its layout keeps the
   * strategy: {@code spec.strategy} (v1beta3) or {@code template.strategy} (v1beta1).
   */
  public static List<DcHook> ofLegacy(Resource r) {
    if (!isLegacyDeploymentConfig(r)) {
      return List.of();
    }
    List<DcHook> out = new ArrayList<>(of(r));
    YMap template = r.root().map("template");
    YMap strategy = template == null ? null : template.map("strategy");
    if (strategy != null) {
      for (String params : List.of("recreateParams", "rollingParams")) {
        collect(r, Form.PARAMS, params, strategy.map(params), out);
      }
      collect(r, Form.PROPOSAL, "lifecycle", strategy.map("lifecycle"), out);
    }
    return out;
  }

  /**
   * Whether the standard deployer runs this hook on a rollout: a params-form hook in the block its strategy
   * type uses, or in either block when the type is a template expression. Custom strategies run their own
   * image, so their hooks are not counted.
   */
  public boolean runsOnRollout() {
    if (form != Form.PARAMS || hook == null) {
      return false;
    }
    // The strategy holding this hook: spec.strategy, or template.strategy in the v1beta1 layout.
    YNode block = hook.parent();
    YMap strategy = block == null || block.parent() == null ? null : block.parent().asMap();
    YScalar t = strategy == null ? null : strategy.scalar("type");
    if (t != null && t.isTemplated()) {
      return true;
    }
    String type = t == null || t.type() == YScalar.Type.NULL ? "Rolling" : t.value();
    return (type.equals("Recreate") && params.equals("recreateParams"))
        || (type.equals("Rolling") && params.equals("rollingParams"));
  }

  /**
   * {@code failurePolicy} when it is known, else null: absent, null or empty (which the API rejects), or a
   * template expression.
   */
  public String policy() {
    YScalar p = failurePolicy();
    return p == null || p.type() == YScalar.Type.NULL || p.value().isEmpty() || p.isTemplated() ? null : p.value();
  }

  /** {@link #policy()} when it is one the API accepts, else null. */
  public FailurePolicy knownPolicy() {
    return FailurePolicy.parse(policy());
  }

  /** The params block holding this hook (in either layout), or null for the proposal form or a non-map hook. */
  public YMap paramsBlock() {
    return form == Form.PARAMS && hook != null && hook.parent() != null ? hook.parent().asMap() : null;
  }

  /**
   * {@code timeoutSeconds} of this hook's params block: as written, 600 when absent, empty when unknown or for
   * the proposal form.
   */
  public OptionalLong timeoutSeconds() {
    YMap block = paramsBlock();
    if (block == null) {
      return OptionalLong.empty();
    }
    return orDefault(block.scalar("timeoutSeconds"), DEFAULT_TIMEOUT_SECONDS);
  }

  /** {@code spec.strategy.activeDeadlineSeconds} as written, or null. */
  public static YScalar activeDeadlineNode(Resource r) {
    YMap s = strategy(r);
    return s == null ? null : s.scalar("activeDeadlineSeconds");
  }

  /** The effective {@code activeDeadlineSeconds}: as written, 21600 when absent, empty when unknown. */
  public static OptionalLong activeDeadline(Resource r) {
    return orDefault(activeDeadlineNode(r), DEFAULT_ACTIVE_DEADLINE_SECONDS);
  }

  /** Describes the deadline for messages: {@code 21600s, the default}, {@code 900s} or {@code unknown}. */
  public static String describeActiveDeadline(Resource r) {
    OptionalLong d = activeDeadline(r);
    YScalar n = activeDeadlineNode(r);
    boolean isDefault = n == null || n.type() == YScalar.Type.NULL;
    return d.isPresent() ? d.getAsLong() + "s" + (isDefault ? ", the default" : "") : "unknown";
  }

  /** An integer field: its value, the default when absent or null, empty when it is anything else. */
  public static OptionalLong orDefault(YScalar s, long defaultValue) {
    if (s == null || s.type() == YScalar.Type.NULL) {
      return OptionalLong.of(defaultValue);
    }
    return s.asLong();
  }

  /**
   * The regular container an execNewPod hook is built from: the one {@code containerName} names, or the only
   * container when the name is empty (the API server defaults it so). Null when it cannot be known.
   */
  public YMap execContainer() {
    YMap exec = execNewPod();
    YMap ps = podSpec();
    YSeq cs = ps == null ? null : ps.seq("containers");
    if (exec == null || cs == null) {
      return null;
    }
    YScalar name = exec.scalar("containerName");
    boolean empty = name == null || name.type() == YScalar.Type.NULL || name.value().isEmpty();
    if (empty) {
      return cs.size() == 1 ? cs.get(0).asMap() : null;
    }
    if (name.isTemplated()) {
      return null;
    }
    for (YNode c : cs.items()) {
      if (c instanceof YMap m && name.value().equals(m.string("name"))) {
        return m;
      }
    }
    return null;
  }
}
