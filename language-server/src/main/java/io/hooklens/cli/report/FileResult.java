package io.hooklens.cli.report;

import io.hooklens.core.engine.LintResult;

/** The result for one input, under the name the user gave it. */
public record FileResult(String displayName, LintResult result) {}
