package io.hooklens.run.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The report for machines: the records' components as fields (times in milliseconds), plus
 * {@code succeeded}.
 */
public final class JsonReport {
  private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private JsonReport() {}

  public static ObjectNode tree(RunReport report) {
    ObjectNode root = MAPPER.valueToTree(report);
    root.put("succeeded", report.succeeded());
    return root;
  }

  public static String render(RunReport report) {
    return tree(report).toPrettyString();
  }
}
