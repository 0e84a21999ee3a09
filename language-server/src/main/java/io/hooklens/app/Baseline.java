package io.hooklens.app;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A baseline file: the findings a team has accepted for now, each with how many times it occurs. JSON, version 1,
 * entries sorted so that a rewritten baseline differs from the old one only where findings changed, and files
 * relative to the baseline's directory so that a checkout elsewhere (a CI runner's) reads it alike.
 */
final class Baseline {
  static final int VERSION = 1;
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String[] FIELDS = {"file", "rule", "kind", "namespace", "name", "path", "value"};

  private Baseline() {}

  /** Reads a baseline; a missing, unreadable or malformed file is refused with why and where. */
  static SortedMap<FindingKeys.Key, Integer> read(Path file) throws BaselineFilter.BaselineException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException | OutOfMemoryError e) {
      throw new BaselineFilter.BaselineException("cannot read baseline " + file + ": " + IoErrors.reason(e));
    }
    JsonNode root;
    try {
      root = MAPPER.readTree(bytes);
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      String where = at == null ? "" : at.getLineNr() + ":" + at.getColumnNr() + ": ";
      throw invalid(file, where + e.getOriginalMessage());
    } catch (IOException e) {
      throw new BaselineFilter.BaselineException("cannot read baseline " + file + ": " + IoErrors.reason(e));
    }
    if (root == null || !root.isObject()) {
      throw invalid(file, "not a baseline: a JSON object with \"version\" and \"findings\" was expected");
    }
    if (!root.path("version").isInt() || root.path("version").intValue() != VERSION) {
      throw invalid(file, "\"version\" must be " + VERSION + ", found " + root.path("version"));
    }
    JsonNode findings = root.path("findings");
    if (!findings.isArray()) {
      throw invalid(file, "\"findings\" must be a list");
    }
    SortedMap<FindingKeys.Key, Integer> entries = new TreeMap<>();
    for (int i = 0; i < findings.size(); i++) {
      JsonNode e = findings.get(i);
      String[] v = new String[FIELDS.length];
      for (int k = 0; k < FIELDS.length; k++) {
        JsonNode f = e.path(FIELDS[k]);
        if (!f.isTextual()) {
          throw invalid(file, "findings[" + i + "]: \"" + FIELDS[k] + "\" must be a string");
        }
        v[k] = f.textValue();
      }
      JsonNode count = e.path("count");
      if (!count.isInt() || count.intValue() < 1) {
        throw invalid(file, "findings[" + i + "]: \"count\" must be a whole number of at least 1");
      }
      entries.merge(new FindingKeys.Key(v[0], v[1], v[2], v[3], v[4], v[5], v[6]), count.intValue(), Integer::sum);
    }
    return entries;
  }

  private static BaselineFilter.BaselineException invalid(Path file, String why) {
    return new BaselineFilter.BaselineException("invalid baseline " + file + ": " + why
        + " (write it again with hooklens lint --write-baseline)");
  }

  /** Writes a baseline atomically, entries in order. */
  static void write(Path file, Map<FindingKeys.Key, Integer> entries) throws IOException {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("version", VERSION);
    ArrayNode findings = root.putArray("findings");
    new TreeMap<>(entries).forEach((k, count) -> {
      ObjectNode n = findings.addObject();
      String[] v = {k.file(), k.rule(), k.kind(), k.namespace(), k.name(), k.path(), k.value()};
      for (int i = 0; i < FIELDS.length; i++) {
        n.put(FIELDS[i], v[i]);
      }
      n.put("count", count);
    });
    String text = MAPPER.writer(new DefaultPrettyPrinter()).writeValueAsString(root) + "\n";
    AtomicFiles.write(file, text.getBytes(StandardCharsets.UTF_8));
  }
}
