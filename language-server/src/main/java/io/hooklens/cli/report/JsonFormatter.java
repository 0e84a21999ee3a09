package io.hooklens.cli.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.yaml.Position;
import java.io.PrintWriter;

/**
 * The public JSON contract, version 1: lines and columns are 1-based, columns count code points,
 * ends are exclusive. A finding in a chart file also has {@code values}, the values sets that produce
 * it; plain files' findings do not have the field.
 */
public final class JsonFormatter implements Formatter {
  static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  @Override
  public void write(Report report, PrintWriter out) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("version", 1);
    root.putObject("tool").put("name", "hooklens").put("version", report.toolVersion());
    ArrayNode findings = root.putArray("findings");
    for (FileResult file : report.files()) {
      for (Finding f : file.result().findings()) {
        ObjectNode n = findings.addObject();
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
            ObjectNode rr = rn.putObject("range");
            position(rr.putObject("start"), r.range().start());
            position(rr.putObject("end"), r.range().end());
          }
        }
        if (!file.valuesOf(f).isEmpty()) {
          ArrayNode values = n.putArray("values");
          file.valuesOf(f).forEach(values::add);
        }
      }
    }
    ObjectNode summary = root.putObject("summary");
    summary.put("files", report.files().size());
    summary.put("errors", report.count(Severity.ERROR));
    summary.put("warnings", report.count(Severity.WARNING));
    summary.put("infos", report.count(Severity.INFO));
    summary.put("suppressed", report.suppressed());
    report.fixed().ifPresent(n -> summary.put("fixed", n));
    out.println(root.toPrettyString());
  }

  private static void position(ObjectNode n, Position p) {
    n.put("line", p.line() + 1);
    n.put("column", p.column() + 1);
  }
}
