package io.hooklens.core.yaml;

/**
 * One document of a YAML stream (the whole file for JSON). The root is null when the document is
 * empty or could not be read; the problem explaining the latter is in {@link ParsedFile#problems()}.
 */
public record YamlDocument(int index, YNode root, Range range) {}
