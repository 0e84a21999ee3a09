package io.hooklens.rules.lifecycle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.hooklens.core.engine.Fix;
import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.Container;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.Spelling;
import io.hooklens.core.yaml.SchemaCheck;
import io.hooklens.core.yaml.YMap;
import io.hooklens.core.yaml.YNode;
import io.hooklens.core.yaml.YScalar;
import io.hooklens.core.yaml.YSeq;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

@RuleInfo(
    id = "HL126",
    name = "lifecycle-field-type",
    summary = "A lifecycle field, or a field hooks depend on, has the wrong type or is not a field of the API",
    severity = Severity.ERROR,
    fixable = true,
    remediation = "Write the field with the type the API expects (a list for exec.command, an unquoted integer for"
        + " sleep.seconds and terminationGracePeriodSeconds, true or false for tty, a list of name/value items for"
        + " httpHeaders) and remove or correct unknown fields.",
    messages = {
        @Message(id = "wrongType", text = "{0} must be {1}, not {2}{3}."),
        @Message(id = "apiType", text = "{0}: expected {1}, got {2}; the API rejects it{3}{4}."),
        @Message(id = "unknownFieldNear", text = "Unknown field \"{0}\" in {1} (did you mean {2}?): "
            + SchemaCheck.UNKNOWN_FIELD_FATE + "."),
        @Message(id = "unknownField", text = "Unknown field \"{0}\" in {1}, which takes {2}: "
            + SchemaCheck.UNKNOWN_FIELD_FATE + "."),
        @Message(id = "missingField", text = "{0} needs {1}; {2} is missing.")
    })
public final class LifecycleFieldType implements Rule {
  /** Where the schema module packages {@code schemas/lifecycle.schema.json}. */
  static final String SCHEMA_RESOURCE = "io/hooklens/schemas/lifecycle.schema.json";

  private static final Pattern SHELL_SYNTAX = Pattern.compile("[|&;<>$`'\"*()]");
  private static final Pattern INTEGER = Pattern.compile("\\s*[-+]?[0-9]+\\s*");

  /** Loaded on first use, once per process; the schema is immutable. */
  private static final class Schema {
    static final SchemaCheck LIFECYCLE = SchemaCheck.load(SCHEMA_RESOURCE);
  }

  /**
   * Whether {@code map}, an object of the schema's {@code $defs/<type>}, lacks {@code field} but has a key this
   * rule reports as its misspelling: a rule about the missing field then says nothing more.
   */
  static boolean misspells(YMap map, String type, String field) {
    JsonNode ref = JsonNodeFactory.instance.objectNode().put("$ref", "#/$defs/" + type);
    return Spelling.misspells(map, field, SchemaCheck.properties(Schema.LIFECYCLE.resolve(ref)));
  }

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Container c : doc.containers()) {
      YNode lifecycle = c.node().get("lifecycle");
      if (lifecycle == null) {
        continue;
      }
      SchemaCheck schema = Schema.LIFECYCLE;
      Resource owner = c.pod().owner();
      for (SchemaCheck.Violation v : schema.validate(lifecycle)) {
        switch (v.keyword()) {
          case "type" -> wrongType(ctx, schema, v, owner);
          case "additionalProperties" -> unknownField(ctx, v);
          case "required" -> missingField(ctx, v);
          default -> {
            // Ranges, enums, patterns and empty lists have rules of their own (HL105, HL108, HL109, HL111...).
          }
        }
      }
    }
    for (TypedFields.Mistyped m : TypedFields.in(doc)) {
      String expected = m.expected().name().toLowerCase(Locale.ROOT);
      RuleContext.Reported reported = ctx.report(m.value(), "apiType", apiPath(m.owner(), m.value()), expected,
          got(m.value()), unchecked(m.unchecked()), m.value() instanceof YScalar s ? typedHint(s, m.expected()) : "");
      if (m.value() instanceof YScalar s && s.type() == YScalar.Type.STRING
          && m.expected() == TypedFields.Expected.INTEGER) {
        reported.fix(conversion(ctx, s, List.of("integer"), List.of()));
      }
    }
  }

  /** What the hook rules could not check when a lifecycle field has the wrong type. */
  private static String lifecycleUnchecked(List<Object> path) {
    Object last = path.isEmpty() ? null : path.get(path.size() - 1);
    Object holder = path.size() < 2 ? null : path.get(path.size() - 2);
    if ("seconds".equals(last) && "sleep".equals(holder)) {
      return "the sleep was not checked against its range and the grace period";
    }
    if ("port".equals(last)) {
      return "the port was not checked against its range and the container's ports";
    }
    return "";
  }

  private static String unchecked(String what) {
    return what.isEmpty() ? "" : ", and " + what;
  }

  /** A boolean written in quotes: say how to write it. */
  private static String typedHint(YScalar s, TypedFields.Expected expected) {
    if (s.type() == YScalar.Type.STRING && expected == TypedFields.Expected.INTEGER
        && INTEGER.matcher(s.value()).matches()) {
      return " — write " + decimal(s.value()) + " without quotes";
    }
    if (s.type() == YScalar.Type.STRING && expected == TypedFields.Expected.BOOLEAN) {
      return " — write true or false without quotes";
    }
    return "";
  }

  /**
   * The field as the API server's decode error names it, from the object's root: {@code
   * Deployment.spec.template.spec.terminationGracePeriodSeconds}.
   */
  private static String apiPath(Resource owner, YNode node) {
    Deque<String> steps = new ArrayDeque<>();
    for (YNode n = node; n != null && n != owner.root() && n.parent() != null; n = n.parent()) {
      Object k = n.keyInParent();
      steps.push(k instanceof Integer i ? "[" + i + "]" : "." + k);
    }
    return (owner.kind() == null ? "object" : owner.kind()) + String.join("", steps);
  }

  /** The value as the decode error describes it: its JSON type, and the value itself when a scalar. */
  private static String got(YNode n) {
    if (n instanceof YMap) {
      return "a mapping";
    }
    if (n instanceof YSeq) {
      return "a list";
    }
    YScalar s = (YScalar) n;
    return switch (s.type()) {
      case STRING -> "string " + quote(s.value());
      case INT -> "integer " + s.value();
      case FLOAT -> "number " + s.value();
      case BOOL -> "boolean " + s.value();
      case NULL -> "null";
    };
  }

  private static String apiExpected(List<String> types) {
    List<String> parts = new ArrayList<>();
    for (String t : types) {
      parts.add(switch (t) {
        case "array" -> "list";
        case "object" -> "mapping";
        default -> t;
      });
    }
    return String.join(" or ", parts);
  }

  private static void wrongType(RuleContext ctx, SchemaCheck schema, SchemaCheck.Violation v, Resource owner) {
    if (v.node() instanceof YScalar s && s.isTemplated()) {
      return;
    }
    List<String> expected = nonNull(SchemaCheck.types(v.schema()));
    String field = describePath(v.path());
    String hint = hint(schema, v.schema(), v.node());
    boolean scalarExpected = !expected.contains("array") && !expected.contains("object");
    RuleContext.Reported reported;
    if (v.node() instanceof YScalar s && s.type() != YScalar.Type.NULL && scalarExpected) {
      reported = ctx.report(v.node(), "apiType", apiPath(owner, s), apiExpected(expected), got(s),
          unchecked(lifecycleUnchecked(v.path())), hint);
    } else {
      reported = ctx.report(v.node(), "wrongType", field, describeExpected(schema, v.schema()), describe(v.node()),
          hint);
    }
    if (v.node() instanceof YScalar s && s.type() == YScalar.Type.STRING) {
      reported.fix(conversion(ctx, s, expected, v.path()));
    }
  }

  private static void unknownField(RuleContext ctx, SchemaCheck.Violation v) {
    YMap.Entry e = ((YMap) v.node()).entry(v.property());
    if (e.key().isTemplated() || (v.path().size() == 1 && v.property().equals("grpc"))) {
      // grpc in a handler is HL104's: it exists on probes, and that deserves its own explanation.
      return;
    }
    List<String> known = SchemaCheck.properties(v.schema());
    List<String> near = Spelling.nearestField(v.property(), known);
    String where = describePath(v.path());
    if (near.isEmpty()) {
      ctx.report(e.key(), "unknownField", v.property(), where, orList(known));
    } else {
      ctx.report(e.key(), "unknownFieldNear", v.property(), where, orList(near));
    }
  }

  private static void missingField(RuleContext ctx, SchemaCheck.Violation v) {
    YMap map = (YMap) v.node();
    if (map.entries().stream().anyMatch(e -> e.key().isTemplated())) {
      // A template line inside the mapping may well produce the missing field.
      return;
    }
    if (Spelling.misspells(map, v.property(), SchemaCheck.properties(v.schema()))) {
      // The misspelt key is reported as unknown, with the correction.
      return;
    }
    List<String> required = new ArrayList<>();
    v.schema().path("required").forEach(r -> required.add(r.asText()));
    ctx.report(map, "missingField", describePath(v.path()), andList(required), v.property());
  }

  /**
   * The conversions the author evidently meant: a quoted whole number written as a number, and an
   * exec command written as one string split into its words when it holds no shell syntax.
   */
  private static Fix conversion(RuleContext ctx, YScalar s, List<String> expected, List<Object> path) {
    String value = s.value().trim();
    if (expected.contains("integer") && INTEGER.matcher(value).matches()) {
      String n = decimal(value);
      return new Fix("Write " + n + " as a number", true, ctx.edits().replaceLiteral(s, n));
    }
    boolean command = !path.isEmpty() && "command".equals(path.get(path.size() - 1));
    if (expected.contains("array") && command && !value.isEmpty() && !SHELL_SYNTAX.matcher(value).find()) {
      return new Fix("Write the command as a list", true,
          ctx.edits().replaceWithFlow(s, List.of(value.split("\\s+"))));
    }
    return null;
  }

  /**
   * A quoted whole number as a plain one that means the same: without a sign or leading zeros, which would make
   * {@code "030"} the octal 24 once unquoted.
   */
  private static String decimal(String quoted) {
    return new BigInteger(quoted.trim()).toString();
  }

  /** A suggestion for the common mistakes, or an empty string. */
  private static String hint(SchemaCheck schema, JsonNode expected, YNode actual) {
    if (!(actual instanceof YScalar s) || s.type() == YScalar.Type.NULL) {
      return actual instanceof YMap m ? headerHint(schema, expected, m) : "";
    }
    List<String> types = nonNull(SchemaCheck.types(expected));
    if (types.equals(List.of("object"))) {
      JsonNode properties = expected.path("properties");
      if (properties.size() == 1) {
        String name = properties.fieldNames().next();
        return " — write {" + name + ": " + suggest(schema, properties.get(name), s) + "}";
      }
      return "";
    }
    String suggestion = suggest(schema, expected, s);
    if (suggestion.equals(display(s))) {
      return "";
    }
    if (types.equals(List.of("integer"))) {
      return " — write " + suggestion + " without quotes";
    }
    if (s.type() == YScalar.Type.BOOL && !s.value().equalsIgnoreCase("true") && !s.value().equalsIgnoreCase("false")) {
      return " — YAML reads " + s.value() + " as a boolean; quote it: " + suggestion;
    }
    return " — " + (types.equals(List.of("string")) ? "quote it: " : "write ") + suggestion;
  }

  /** The value as it should have been written for a schema, or as written when there is no better one. */
  private static String suggest(SchemaCheck schema, JsonNode fieldSchema, YScalar s) {
    List<String> types = nonNull(SchemaCheck.types(fieldSchema));
    if (types.contains("array") && s.type() == YScalar.Type.STRING && !s.value().isBlank()
        && itemTypes(schema, fieldSchema).equals(List.of("string"))) {
      return argv(s.value());
    }
    if (types.contains("integer") && s.type() == YScalar.Type.STRING && INTEGER.matcher(s.value()).matches()) {
      return decimal(s.value());
    }
    if (types.equals(List.of("string")) && s.type() != YScalar.Type.STRING) {
      return quote(s.value());
    }
    return display(s);
  }

  /** {@code "sleep 5"} becomes {@code ["sleep", "5"]}; a script becomes a shell invocation. */
  private static String argv(String command) {
    List<String> words = SHELL_SYNTAX.matcher(command).find()
        ? List.of("/bin/sh", "-c", command.trim())
        : List.of(command.trim().split("\\s+"));
    StringBuilder sb = new StringBuilder("[");
    for (String w : words) {
      sb.append(sb.length() > 1 ? ", " : "").append(quote(w));
    }
    return sb.append(']').toString();
  }

  /** httpHeaders written as a mapping of name to value: show the list form of its first header. */
  private static String headerHint(SchemaCheck schema, JsonNode expected, YMap actual) {
    JsonNode item = schema.resolve(expected.path("items"));
    JsonNode required = item.path("required");
    if (actual.entries().isEmpty() || required.size() != 2) {
      return "";
    }
    YMap.Entry first = actual.entries().get(0);
    String value = first.value() instanceof YScalar s ? quote(s.value()) : "...";
    return " — write one item per header, such as [{" + required.get(0).asText() + ": " + first.key().value()
        + ", " + required.get(1).asText() + ": " + value + "}]";
  }

  private static String describeExpected(SchemaCheck schema, JsonNode fieldSchema) {
    List<String> parts = new ArrayList<>();
    for (String t : nonNull(SchemaCheck.types(fieldSchema))) {
      parts.add(switch (t) {
        case "array" -> "a list" + switch (String.join(",", itemTypes(schema, fieldSchema))) {
          case "string" -> " of strings";
          case "object" -> " of mappings";
          default -> "";
        };
        case "object" -> "a mapping";
        case "integer" -> "an integer";
        case "string" -> "a string";
        case "boolean" -> "true or false";
        default -> "a " + t;
      });
    }
    return String.join(" or ", parts);
  }

  private static List<String> itemTypes(SchemaCheck schema, JsonNode arraySchema) {
    return nonNull(SchemaCheck.types(schema.resolve(arraySchema.path("items"))));
  }

  private static String describe(YNode n) {
    if (n instanceof YMap) {
      return "a mapping";
    }
    if (n instanceof YSeq) {
      return "a list";
    }
    return switch (((YScalar) n).type()) {
      case STRING -> "a string";
      case INT -> "a number";
      case FLOAT -> "a floating-point number";
      case BOOL -> "a boolean";
      case NULL -> "null";
    };
  }

  private static String display(YScalar s) {
    return s.type() == YScalar.Type.STRING ? quote(s.value()) : s.value();
  }

  private static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  /**
   * The path from {@code lifecycle}, without the hook for fields inside a handler, as the examples in
   * Kubernetes' documentation name them: {@code exec.command}, {@code httpGet.httpHeaders[0]}.
   */
  private static String describePath(List<Object> path) {
    if (path.isEmpty()) {
      return "lifecycle";
    }
    if (path.size() == 1) {
      return String.valueOf(path.get(0));
    }
    return SchemaCheck.describe(path.subList(1, path.size()));
  }

  private static List<String> nonNull(List<String> types) {
    return types.stream().filter(t -> !t.equals("null")).toList();
  }

  private static String orList(List<String> names) {
    return join(names, " or ");
  }

  private static String andList(List<String> names) {
    return join(names, " and ");
  }

  private static String join(List<String> names, String last) {
    StringBuilder sb = new StringBuilder();
    for (Iterator<String> it = names.iterator(); it.hasNext();) {
      String n = it.next();
      sb.append(sb.length() == 0 ? "" : it.hasNext() ? ", " : last).append(n);
    }
    return sb.toString();
  }
}
