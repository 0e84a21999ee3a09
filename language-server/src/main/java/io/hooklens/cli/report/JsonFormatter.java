package io.hooklens.cli.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.RuleRegistry;
import io.hooklens.core.yaml.Position;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;

/**
 * The public JSON contract, version 1: lines and columns are 1-based, columns count code points,
 * ends are exclusive. A finding in a chart file also has {@code values}, the values sets that produce
 * it; plain files' findings do not have the field.
 */
public final class JsonFormatter implements Formatter {
  static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private JsonGenerator json;

  @Override
  public void start(RuleRegistry registry, String toolVersion, PrintWriter out) {
    json = generator(out);
    write(() -> {
      json.writeStartObject();
      json.writeNumberField("version", 1);
      ObjectNode tool = MAPPER.createObjectNode().put("name", "hooklens").put("version", toolVersion);
      json.writeFieldName("tool");
      json.writeTree(tool);
      json.writeArrayFieldStart("findings");
    });
  }

  @Override
  public void file(FileResult file, PrintWriter out) {
    for (Finding f : file.result().findings()) {
      ObjectNode n = MAPPER.createObjectNode();
      n.put("rule", f.ruleId());
      n.put("name", f.ruleName());
      n.put("severity", f.severity().label());
      n.put("message", f.message());
      n.put("file", file.displayName());
      ObjectNode range = n.putObject("range");
      position(range.putObject("start"), f.range().start());
      position(range.putObject("end"), f.range().end());
      ObjectNode res = n.putObject("resource");
      if (f.resource() != null) {
        res.put("apiVersion", f.resource().apiVersion());
        res.put("kind", f.resource().kind());
        res.put("name", f.resource().name());
      } else {
        res.putNull("apiVersion").putNull("kind").putNull("name");
      }
      res.put("document", f.document());
      if (!f.related().isEmpty()) {
        ArrayNode related = n.putArray("related");
        for (Finding.Related r : f.related()) {
          ObjectNode rn = related.addObject();
          rn.put("message", r.message());
          rn.put("file", r.file() == null ? file.displayName() : r.file());
          ObjectNode rr = rn.putObject("range");
          position(rr.putObject("start"), r.range().start());
          position(rr.putObject("end"), r.range().end());
        }
      }
      if (!file.valuesOf(f).isEmpty()) {
        ArrayNode values = n.putArray("values");
        file.valuesOf(f).forEach(values::add);
      }
      write(() -> json.writeTree(n));
    }
  }

  @Override
  public void end(Totals totals, PrintWriter out) {
    ObjectNode summary = MAPPER.createObjectNode();
    summary.put("files", totals.files());
    summary.put("errors", totals.errors());
    summary.put("warnings", totals.warnings());
    summary.put("infos", totals.infos());
    summary.put("suppressed", totals.suppressed());
    totals.fixed().ifPresent(n -> summary.put("fixed", n));
    totals.baselined().ifPresent(n -> summary.put("baselined", n));
    write(() -> {
      json.writeEndArray();
      json.writeFieldName("summary");
      json.writeTree(summary);
      json.writeEndObject();
      json.flush();
    });
    out.println();
  }

  private static void position(ObjectNode n, Position p) {
    n.put("line", p.line() + 1);
    n.put("column", p.column() + 1);
  }

  /** A generator that writes as {@code JsonNode.toPrettyString()} does, and leaves {@code out} open. */
  static JsonGenerator generator(PrintWriter out) {
    try {
      return MAPPER.createGenerator(out).setPrettyPrinter(new DefaultPrettyPrinter())
          .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writing to a PrintWriter never throws; it records errors for {@code checkError()}. */
  interface Write {
    void run() throws IOException;
  }

  static void write(Write w) {
    try {
      w.run();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
