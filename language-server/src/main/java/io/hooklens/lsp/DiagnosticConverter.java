package io.hooklens.lsp;

import io.hooklens.core.engine.Finding;
import io.hooklens.core.engine.RuleRegistry;
import io.hooklens.core.engine.Severity;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DiagnosticCodeDescription;
import org.eclipse.lsp4j.DiagnosticRelatedInformation;
import org.eclipse.lsp4j.DiagnosticSeverity;
import org.eclipse.lsp4j.DiagnosticTag;
import org.eclipse.lsp4j.Location;
import org.eclipse.lsp4j.jsonrpc.messages.Either;

/** Turns findings into LSP diagnostics. */
final class DiagnosticConverter {
  /** The source every diagnostic carries, so users can tell ours from other servers'. */
  static final String SOURCE = "hooklens";

  /**
   * Rules whose finding marks text that is deprecated (struck through) or has no effect (faded). Only
   * rules where that holds for every finding of the rule, on exactly the range reported:
   * HL204 {@code test-success}, Helm 2's name of the {@code test} event, still read by Helm 3 and 4;
   * HL212 {@code helm.sh/hook-delete-timeout}, a Helm 2 annotation Helm 3 and 4 ignore;
   * HL213 a hook weight or policy on a resource that is not a hook, which Helm never reads;
   * HL319 {@code kind: DeploymentConfig}, deprecated since OpenShift 4.14.
   */
  static final Map<String, List<DiagnosticTag>> TAGS = Map.of(
      "HL204", List.of(DiagnosticTag.Deprecated),
      "HL212", List.of(DiagnosticTag.Deprecated, DiagnosticTag.Unnecessary),
      "HL213", List.of(DiagnosticTag.Unnecessary),
      "HL319", List.of(DiagnosticTag.Deprecated));

  private final RuleRegistry registry;

  DiagnosticConverter(RuleRegistry registry) {
    this.registry = registry;
  }

  /** Diagnostics of findings whose related places are all in their own file. */
  List<Diagnostic> convert(String uri, List<Finding> findings, Positions positions) {
    return convert(uri, findings, positions, file -> null);
  }

  /**
   * Diagnostics of findings, with related places in other files (a chart's template, for a finding on a values
   * file) positioned by {@code others}, which gives a file's positions by its name in reports, or null when that
   * file cannot be read; such a place is then left out.
   */
  List<Diagnostic> convert(String uri, List<Finding> findings, Positions positions,
      Function<String, Positions> others) {
    List<Diagnostic> out = new ArrayList<>(findings.size());
    for (Finding f : findings) {
      out.add(convert(uri, f, positions, others));
    }
    return out;
  }

  private Diagnostic convert(String uri, Finding f, Positions positions, Function<String, Positions> others) {
    Diagnostic d = new Diagnostic(positions.range(f.range()), f.message(), severity(f.severity()), SOURCE);
    d.setCode(Either.forLeft(f.ruleId()));
    registry.find(f.ruleId()).ifPresent(rule -> d.setCodeDescription(new DiagnosticCodeDescription(rule.docsUrl())));
    if (!f.related().isEmpty()) {
      List<DiagnosticRelatedInformation> related = new ArrayList<>();
      for (Finding.Related r : f.related()) {
        if (r.file() == null) {
          related.add(new DiagnosticRelatedInformation(new Location(uri, positions.range(r.range())), r.message()));
          continue;
        }
        Positions there = others.apply(r.file());
        if (there != null) {
          String other = Path.of(r.file()).toAbsolutePath().normalize().toUri().toString();
          related.add(new DiagnosticRelatedInformation(new Location(other, there.range(r.range())), r.message()));
        }
      }
      if (!related.isEmpty()) {
        d.setRelatedInformation(related);
      }
    }
    List<DiagnosticTag> tags = TAGS.get(f.ruleId());
    if (tags != null) {
      d.setTags(tags);
    }
    return d;
  }

  static DiagnosticSeverity severity(Severity s) {
    return switch (s) {
      case ERROR -> DiagnosticSeverity.Error;
      case WARNING -> DiagnosticSeverity.Warning;
      case INFO -> DiagnosticSeverity.Information;
    };
  }
}
