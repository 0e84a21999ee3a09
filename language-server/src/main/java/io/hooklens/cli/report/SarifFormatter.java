package io.hooklens.cli.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.RuleDescriptor;
import io.hooklens.core.engine.RuleRegistry;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.yaml.Range;
import java.io.PrintWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** SARIF 2.1.0, as GitHub code scanning and other SARIF viewers read it. */
public final class SarifFormatter implements Formatter {
  private JsonGenerator json;
  private final Map<String, Integer> ruleIndex = new HashMap<>();

  @Override
  public void start(RuleRegistry registry, String toolVersion, PrintWriter out) {
    ObjectNode tool = JsonFormatter.MAPPER.createObjectNode();
    ObjectNode driver = tool.putObject("driver");
    driver.put("name", "hooklens");
    driver.put("version", toolVersion);
    driver.put("informationUri", "https://github.com/hooklens/hooklens");
    ArrayNode rules = driver.putArray("rules");
    List<RuleDescriptor> all = registry.all();
    for (int i = 0; i < all.size(); i++) {
      RuleDescriptor d = all.get(i);
      ruleIndex.put(d.id(), i);
      ObjectNode r = rules.addObject();
      r.put("id", d.id());
      r.put("name", d.name());
      r.putObject("shortDescription").put("text", d.summary());
      r.putObject("fullDescription").put("text", d.summary() + ". " + d.remediation());
      r.put("helpUri", d.docsUrl());
      r.putObject("help").put("text", d.remediation());
      r.putObject("defaultConfiguration").put("level", level(d.severity()));
      r.putObject("properties").putArray("tags").add(d.family());
    }
    json = JsonFormatter.generator(out);
    JsonFormatter.write(() -> {
      json.writeStartObject();
      json.writeStringField("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
      json.writeStringField("version", "2.1.0");
      json.writeArrayFieldStart("runs");
      json.writeStartObject();
      json.writeFieldName("tool");
      json.writeTree(tool);
      json.writeStringField("columnKind", "unicodeCodePoints");
      json.writeArrayFieldStart("results");
    });
  }

  @Override
  public void file(FileResult file, PrintWriter out) {
    String uri = uri(file.displayName());
    for (Finding f : file.result().findings()) {
      ObjectNode r = JsonFormatter.MAPPER.createObjectNode();
      r.put("ruleId", f.ruleId());
      r.put("ruleIndex", ruleIndex.get(f.ruleId()));
      r.put("level", level(f.severity()));
      r.putObject("message").put("text", file.messageOf(f));
      if (file.baselined().isPresent()) {
        // Findings a baseline holds back are left out, as in every format; what is reported is new to it.
        r.put("baselineState", "new");
      }
      location(r.putArray("locations").addObject(), uri, f.range());
      if (!file.valuesOf(f).isEmpty()) {
        ArrayNode values = r.putObject("properties").putArray("values");
        file.valuesOf(f).forEach(values::add);
      }
      if (!f.related().isEmpty()) {
        ArrayNode related = r.putArray("relatedLocations");
        for (int i = 0; i < f.related().size(); i++) {
          Finding.Related rel = f.related().get(i);
          ObjectNode loc = related.addObject();
          loc.put("id", i + 1);
          location(loc, rel.file() == null ? uri : uri(rel.file()), rel.range());
          loc.putObject("message").put("text", rel.message());
        }
      }
      JsonFormatter.write(() -> json.writeTree(r));
    }
  }

  @Override
  public void end(Totals totals, PrintWriter out) {
    JsonFormatter.write(() -> {
      json.writeEndArray();
      if (totals.baselined().isPresent()) {
        json.writeFieldName("properties");
        json.writeTree(JsonFormatter.MAPPER.createObjectNode().put("baselined", totals.baselined().getAsInt()));
      }
      json.writeEndObject();
      json.writeEndArray();
      json.writeEndObject();
      json.flush();
    });
    out.println();
  }

  private static void location(ObjectNode loc, String uri, Range range) {
    ObjectNode physical = loc.putObject("physicalLocation");
    physical.putObject("artifactLocation").put("uri", uri);
    ObjectNode region = physical.putObject("region");
    region.put("startLine", range.start().line() + 1);
    region.put("startColumn", range.start().column() + 1);
    region.put("endLine", range.end().line() + 1);
    region.put("endColumn", range.end().column() + 1);
  }

  static String level(Severity s) {
    return switch (s) {
      case ERROR -> "error";
      case WARNING -> "warning";
      case INFO -> "note";
    };
  }

  /** A relative URI reference for a path as given; absolute paths become file URIs. */
  static String uri(String path) {
    String p = path.replace('\\', '/');
    StringBuilder sb = new StringBuilder();
    for (char c : p.toCharArray()) {
      if (c == ' ' || c == '%' || c == '#' || c == '?' || c < 0x20) {
        sb.append('%').append(String.format("%02X", (int) c));
      } else {
        sb.append(c);
      }
    }
    return p.startsWith("/") ? "file://" + sb : sb.toString();
  }
}
