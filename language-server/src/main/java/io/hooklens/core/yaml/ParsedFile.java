package io.hooklens.core.yaml;

import java.util.List;

/**
 * The result of reading a file: its documents and what was wrong with the text. Never an exception.
 *
 * @param templated the text held Go template actions, which were masked before reading
 */
public record ParsedFile(SourceText source, List<YamlDocument> documents, List<ParseProblem> problems,
    boolean templated) {}
