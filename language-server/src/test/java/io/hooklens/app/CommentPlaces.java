package io.hooklens.app;

import io.hooklens.TestPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.comments.CommentLine;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/**
 * Where each marked comment ({@code # c-NAME ...}) of a migrated text sits: the object ({@code Kind/name}) and
 * the field it is on, read back from the text by the YAML parser, or the note it is quoted under.
 */
public final class CommentPlaces {
  /** The commented DeploymentConfig the migration tests share. */
  public static String fixture() throws IOException {
    return Files.readString(TestPaths.testResources().resolve("migrate/commented-dc.yaml"));
  }

  /** Where {@link #fixture()}'s comments must be after the migration; a note is named by words it holds. */
  public static final Map<String, String> EXPECTED = Map.ofEntries(
      Map.entry("c-head", "Deployment/shop apiVersion"),
      Map.entry("c-kind", "Deployment/shop kind"),
      Map.entry("c-name", "Deployment/shop metadata.name"),
      Map.entry("c-label", "Deployment/shop metadata.labels.app"),
      Map.entry("c-replicas", "Deployment/shop spec.replicas"),
      Map.entry("c-selector", "Deployment/shop spec.selector"),
      Map.entry("c-triggers", "note: the ConfigChange trigger"),
      Map.entry("c-config-trigger", "note: the ConfigChange trigger"),
      Map.entry("c-image-trigger", "note: the ImageChange trigger"),
      Map.entry("c-strategy-type", "Deployment/shop spec.strategy.type"),
      Map.entry("c-max-surge", "Deployment/shop spec.strategy.rollingUpdate.maxSurge"),
      Map.entry("c-timeout", "note: rollingParams.timeoutSeconds"),
      Map.entry("c-pre", "Job/shop-pre-hook apiVersion"),
      Map.entry("c-pre-policy", "Job/shop-pre-hook spec.backoffLimit"),
      Map.entry("c-pre-container", "Job/shop-pre-hook spec.template.spec.containers[0].name"),
      Map.entry("c-pre-command", "Job/shop-pre-hook spec.template.spec.containers[0].command"),
      Map.entry("c-mid", "note: the mid hook"),
      Map.entry("c-mid-command", "note: the mid hook"),
      Map.entry("c-post", "Job/shop-post-hook apiVersion"),
      Map.entry("c-post-policy", "Job/shop-post-hook spec.backoffLimit"),
      Map.entry("c-post-container", "Job/shop-post-hook spec.template.spec.containers[0].name"),
      Map.entry("c-post-command-item", "Job/shop-post-hook spec.template.spec.containers[0].command[0]"),
      Map.entry("c-post-argument", "Job/shop-post-hook spec.template.spec.containers[0].command[1]"),
      Map.entry("c-template", "Deployment/shop spec.template"),
      Map.entry("c-container", "Deployment/shop spec.template.spec.containers[0].name"),
      Map.entry("c-image", "Deployment/shop spec.template.spec.containers[0].image"),
      Map.entry("c-port", "Deployment/shop spec.template.spec.containers[0].ports[0].containerPort"),
      Map.entry("c-env", "Deployment/shop spec.template.spec.containers[0].env[0].name"),
      Map.entry("c-env-item", "Deployment/shop spec.template.spec.containers[0].env[1].name"),
      Map.entry("c-volume", "Deployment/shop spec.template.spec.volumes[0].name"),
      Map.entry("c-end", "Deployment/shop (end)"));

  /**
   * The lines around each list item of {@link #fixture()} with a comment, as the migration writes them: a comment
   * line above the item, at the column of its {@code -}, and one at the end of its line after its content.
   */
  public static final List<String> LIST_ITEMS = List.of("""
            containers:
            # c-container: the only one
            - name: shop
      """, """
            containers:
            - name: shop # c-pre-container
      """, """
              ports:
              # c-port
              - containerPort: 8080
              env:
              - name: MODE # c-env
                value: fast
              # c-env-item: the log level
              - name: LEVEL
                value: debug
      """, """
            volumes:
            # c-volume
            - name: data
              emptyDir: {}
      """, """
            containers:
            # c-post-container
            - name: shop
      """, """
              command:
              # c-post-command-item: whom to tell
              - /bin/notify
              - --team # c-post-argument
              env:
      """);

  /** {@code text} without its comments, whose migration must write the same data as {@code text}'s. */
  public static String withoutComments(String text) {
    return text.replaceAll("(?m)[ \t]*#.*$", "").replaceAll("(?m)^[ \t]*\n", "");
  }

  private static final Pattern MARK = Pattern.compile("\\bc-[a-z-]*[a-z]");
  private static final Pattern NOTE = Pattern.compile("^# (?! {2})(.*)$");
  private static final Pattern QUOTED = Pattern.compile("^# {3}#.*");

  private CommentPlaces() {}

  /**
   * Each marker of {@code text} with every place it is at: on a field, or quoted under a note (as {@code note: }
   * and the words of {@code EXPECTED} that note holds).
   */
  public static Map<String, List<String>> of(String text) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    String note = null;
    for (String line : text.split("\r?\n")) {
      Matcher n = NOTE.matcher(line);
      if (QUOTED.matcher(line).matches() && note != null) {
        Matcher m = MARK.matcher(line);
        while (m.find()) {
          String at = note;
          String named = EXPECTED.values().stream().filter(v -> v.startsWith("note: "))
              .filter(v -> at.contains(v.substring(6))).findFirst().orElse("note: " + at);
          out.computeIfAbsent(m.group(), k -> new ArrayList<>()).add(named);
        }
      } else {
        note = n.matches() ? n.group(1) : null;
      }
    }
    LoadSettings settings = LoadSettings.builder().setParseComments(true).build();
    for (Node doc : new Compose(settings).composeAllFromString(text)) {
      String object = doc instanceof MappingNode m ? scalar(m, "kind") + "/" + scalar(field(m, "metadata"), "name")
          : "?";
      walk(doc, "", object, out);
    }
    return out;
  }

  private static void walk(Node node, String path, String object, Map<String, List<String>> out) {
    add(node.getEndComments(), object + " " + (path.isEmpty() ? "" : path + " ") + "(end)", out);
    if (node instanceof MappingNode m) {
      for (NodeTuple t : m.getValue()) {
        String at = (path.isEmpty() ? "" : path + ".") + ((ScalarNode) t.getKeyNode()).getValue();
        add(t.getKeyNode().getBlockComments(), object + " " + at, out);
        add(t.getKeyNode().getInLineComments(), object + " " + at, out);
        add(t.getValueNode().getInLineComments(), object + " " + at, out);
        walk(t.getValueNode(), at, object, out);
      }
    } else if (node instanceof SequenceNode s) {
      for (int i = 0; i < s.getValue().size(); i++) {
        Node item = s.getValue().get(i);
        if (item instanceof ScalarNode) {
          add(item.getBlockComments(), object + " " + path + "[" + i + "]", out);
          add(item.getInLineComments(), object + " " + path + "[" + i + "]", out);
        }
        walk(item, path + "[" + i + "]", object, out);
      }
    }
  }

  /** Comments that are notes or quoted under one are read from the lines; only the user's own count here. */
  private static void add(List<CommentLine> comments, String place, Map<String, List<String>> out) {
    for (CommentLine c : comments == null ? List.<CommentLine>of() : comments) {
      Matcher m = MARK.matcher(c.getValue());
      if (c.getValue().stripLeading().startsWith("c-") && m.find()) {
        out.computeIfAbsent(m.group(), k -> new ArrayList<>()).add(place);
      }
    }
  }

  private static Node field(MappingNode m, String key) {
    for (NodeTuple t : m.getValue()) {
      if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals(key)) {
        return t.getValueNode();
      }
    }
    return null;
  }

  private static String scalar(Node m, String key) {
    return m instanceof MappingNode map && field(map, key) instanceof ScalarNode s ? s.getValue() : "?";
  }
}
