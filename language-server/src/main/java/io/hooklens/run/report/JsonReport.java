package io.hooklens.run.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The report for machines: the records' components as fields (times in milliseconds), plus {@code succeeded} for
 * the run and, with {@code outcome}, for each sequence.
 */
public final class JsonReport {
  private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private JsonReport() {}

  public static ObjectNode tree(RunReport report) {
    ObjectNode root = MAPPER.valueToTree(report);
    root.put("succeeded", report.succeeded());
    for (int i = 0; i < report.sequences().size(); i++) {
      Sequence s = report.sequences().get(i);
      ((ObjectNode) root.get("sequences").get(i)).put("succeeded", s.succeeded()).put("outcome", s.outcome());
    }
    return root;
  }

  public static String render(RunReport report) {
    return tree(report).toPrettyString();
  }
}
