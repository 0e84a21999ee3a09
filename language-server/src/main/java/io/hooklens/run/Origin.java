package io.hooklens.run;

import io.hooklens.core.yaml.Position;

/** Where a place in a rendered chart comes from in the chart's files: the file and the position in it. */
public record Origin(String file, Position position) {}
