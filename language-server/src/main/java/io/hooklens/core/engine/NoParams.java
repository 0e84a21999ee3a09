package io.hooklens.core.engine;

/** The parameters of a rule that takes none. */
public record NoParams() {}
