package io.hooklens.core.engine;

import io.hooklens.core.model.HookDocument;
import io.hooklens.core.model.Resource;
import io.hooklens.core.model.Suppression;
import io.hooklens.core.yaml.DocumentChunks;
import io.hooklens.core.yaml.ParseProblem;
import io.hooklens.core.yaml.ParsedFile;
import io.hooklens.core.yaml.Range;
import io.hooklens.core.yaml.SourceText;
import io.hooklens.core.yaml.TemplateMask;
import io.hooklens.core.yaml.YamlReader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Runs the rules over one file. Pure: bytes or text in, findings out; never throws on bad input. */
public final class Linter {
  /** Files larger than this are refused with a finding rather than read. */
  public static final int MAX_BYTES = 64 * 1024 * 1024;


  private final RuleRegistry registry;
  private final YamlReader reader = new YamlReader();

  public Linter(RuleRegistry registry) {
    this.registry = registry;
  }

  public RuleRegistry registry() {
    return registry;
  }

  /** Lints raw file content: refuses binary, UTF-16, UTF-32, non-UTF-8 and oversized input with a finding. */
  public LintResult lint(String name, byte[] bytes, Config config) {
    return lint(name, decode(bytes), config);
  }

  /**
   * Lints file content {@link #decode(byte[])} read; a caller that lets go of the bytes first does not hold them
   * beside the text and model of a large file.
   */
  public LintResult lint(String name, Decoded decoded, Config config) {
    return decoded.refused() ? rejected(name, decoded.refusal(), config) : lint(name, decoded.text(), config);
  }

  /**
   * File content as the linter reads it: its text, or, when it is refused, why (HL002's message).
   *
   * @param text null when refused
   * @param refusal null when read
   */
  public record Decoded(String text, String refusal) {
    public boolean refused() {
      return text == null;
    }

    /** The refusal as a clause after a file's name: {@code the file is UTF-16LE encoded ...}. */
    public String refusalClause() {
      return refusal.substring(0, 1).toLowerCase(Locale.ROOT) + refusal.substring(1);
    }
  }


  /**
   * Reads raw file content as UTF-8 (a byte-order mark is kept in the text), or says why not: too large,
   * UTF-16 or UTF-32 (which Helm does not read, nor kubectl without a byte-order mark; docs/files.md),
   * binary, or not valid UTF-8. Whatever reads a manifest from disk, in the CLI or the language server, decodes
   * it here, so that a UTF-16 file gets the same refusal everywhere.
   */
  public static Decoded decode(byte[] bytes) {
    if (bytes.length > MAX_BYTES) {
      return refused("The file is " + bytes.length / (1024 * 1024) + " MiB; files over " + MAX_BYTES / (1024 * 1024)
          + " MiB are not read");
    }
    // Before the NUL check, which UTF-16 and UTF-32 text fails too: the advice differs.
    Optional<String> wide = WideEncoding.describe(bytes);
    if (wide.isPresent()) {
      return refused("The file is " + wide.get() + "; save it as UTF-8");
    }
    int nul = indexOfNul(bytes);
    if (nul >= 0) {
      return refused("The file contains a NUL byte at offset " + nul + "; it is binary, not YAML or JSON");
    }
    if (!isUtf8(bytes)) {
      return refused("The file is not valid UTF-8 text");
    }
    // Checked first, then decoded by String: decoding into a CharBuffer held two bytes a character besides the
    // String's one (for ASCII and Latin-1 text), four times the file at once.
    return new Decoded(new String(bytes, StandardCharsets.UTF_8), null);
  }

  /** Whether the bytes are well-formed UTF-8; decodes them a small buffer at a time. */
  private static boolean isUtf8(byte[] bytes) {
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(8192);
    while (true) {
      CoderResult r = decoder.decode(in, out, true);
      if (r.isError()) {
        return false;
      }
      if (r.isUnderflow()) {
        return !decoder.flush(out).isError();
      }
      out.clear();
    }
  }

  private static Decoded refused(String why) {
    return new Decoded(null, why);
  }

  private static int indexOfNul(byte[] bytes) {
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == 0) {
        return i;
      }
    }
    return -1;
  }

  private LintResult rejected(String name, String why, Config config) {
    SourceText empty = new SourceText("");
    ParsedFile parsed = new ParsedFile(empty, List.of(),
        List.of(new ParseProblem(ParseProblem.Kind.LIMIT, Range.at(0, 0), why)));
    return run(HookDocument.of(name, parsed), config);
  }

  /**
   * Lints decoded text; JSON is recognised by the {@code .json} extension of the name. Text with Go
   * template actions (a Helm chart template) is read with the actions masked.
   */
  public LintResult lint(String name, String text, Config config) {
    return run(parse(name, text), config);
  }

  /**
   * Reads decoded text into the model rules see, without running them: JSON is recognised by the
   * {@code .json} extension of the name, and Go template actions are masked. An editor reads once,
   * decides whether the file is worth linting, then calls {@link #lint(HookDocument, Config)}.
   */
  public HookDocument parse(String name, String text) {
    boolean json = name.toLowerCase(Locale.ROOT).endsWith(".json");
    SourceText source = new SourceText(text);
    ParsedFile parsed;
    if (TemplateMask.needsMask(source.text())) {
      TemplateMask.Result mask = TemplateMask.maskAndTrack(source.text());
      ParsedFile masked = reader.read(new SourceText(mask.text()), json);
      // Both branches of an {{ if }} may set the same key: not a duplicate in any rendering.
      List<ParseProblem> problems = masked.problems().stream()
          .filter(p -> p.kind() != ParseProblem.Kind.DUPLICATE_KEY).toList();
      parsed = new ParsedFile(source, masked.documents(), problems, true, mask.hiddenOutputLines());
    } else {
      parsed = reader.read(source, json);
    }
    return HookDocument.of(name, parsed);
  }

  /** A file read by {@link #parse(String, String, DocumentChunks)}, and what its next read can reuse. */
  public record Reread(HookDocument document, DocumentChunks chunks) {}

  /**
   * Reads an edited version of a file as {@link #parse(String, String)} does, taking the YAML documents
   * whose text is unchanged from an earlier read ({@link YamlReader#read(SourceText, DocumentChunks)}).
   * JSON and chart templates are read whole.
   */
  public Reread parse(String name, String text, DocumentChunks previous) {
    if (name.toLowerCase(Locale.ROOT).endsWith(".json") || TemplateMask.needsMask(text)) {
      return new Reread(parse(name, text), DocumentChunks.NONE);
    }
    DocumentChunks chunks = reader.read(new SourceText(text), previous);
    return new Reread(HookDocument.of(name, chunks.parsed()), chunks);
  }

  /** Lints a document that {@link #parse(String, String)} read. */
  public LintResult lint(HookDocument doc, Config config) {
    return run(doc, config);
  }

  /**
   * Lints a file its caller has already read, such as a chart template that Helm could not render,
   * whose only problem is Helm's message.
   */
  public LintResult lint(String name, ParsedFile parsed, Config config) {
    return run(HookDocument.of(name, parsed), config);
  }

  private LintResult run(HookDocument doc, Config config) {
    List<Finding> all = new ArrayList<>();
    List<LintResult.RuleFailure> failures = new ArrayList<>();
    FindingPool pool = new FindingPool();
    for (RuleDescriptor rule : registry.all()) {
      Config.RuleSetting setting = settingFor(rule, config);
      if (setting != null && setting.off()) {
        continue;
      }
      Record params = rule.defaultParams();
      if (setting != null && setting.params() != null && !setting.params().isEmpty()) {
        params = Params.bind(rule.paramsType(), setting.params(), new ArrayList<>());
      }
      List<Finding> out = new ArrayList<>();
      try {
        rule.rule().check(doc, new RuleContext(rule, doc, config, params, out, registry, pool));
      } catch (RuntimeException | StackOverflowError | LinkageError | AssertionError e) {
        // One broken rule must not cost the user the other rules' findings: an exception, a recursion too deep, a
        // class of its own that fails to load or a broken assertion stay its own. Running out of memory is the
        // whole process's trouble.
        failures.add(new LintResult.RuleFailure(rule.id(), e));
        continue;
      }
      Severity override = setting == null ? null : setting.severity();
      for (Finding f : out) {
        all.add(override == null ? f : f.withSeverity(override));
      }
    }
    List<Finding> kept = new ArrayList<>();
    int suppressed = 0;
    for (Finding f : all) {
      if (isSuppressed(f, doc)) {
        suppressed++;
      } else {
        kept.add(f);
      }
    }
    kept.sort(Finding.ORDER);
    return new LintResult(doc, List.copyOf(TemplateFixes.verified(doc.parsed(), kept)), suppressed,
        List.copyOf(failures));
  }

  /**
   * The most specific setting that names a rule: its id, alias or name beats a pattern like HL4xx.
   * Null when none does.
   */
  public static Config.RuleSetting settingFor(RuleDescriptor rule, Config config) {
    Config.RuleSetting byPattern = null;
    for (Map.Entry<String, Config.RuleSetting> e : config.rules().entrySet()) {
      String key = e.getKey();
      if (!rule.matches(key)) {
        continue;
      }
      if (key.toLowerCase(Locale.ROOT).contains("x")) {
        byPattern = e.getValue();
      } else {
        return e.getValue();
      }
    }
    return byPattern;
  }

  private boolean isSuppressed(Finding f, HookDocument doc) {
    RuleDescriptor rule = registry.find(f.ruleId()).orElseThrow();
    if (f.ruleId().equals(SUPPRESSION_RULE)) {
      return false;
    }
    for (Suppression s : doc.suppressions()) {
      if (covers(s, f) && s.ruleIds().stream().anyMatch(rule::matches)) {
        return true;
      }
    }
    return false;
  }

  /**
   * A comment covers lines; an annotation covers the findings about its object or, on a List or Template,
   * about the objects in it.
   */
  private static boolean covers(Suppression s, Finding f) {
    Resource o = s.object();
    if (o == null) {
      return s.coversLine(f.range().start().line());
    }
    return f.resource() != null && o.document() == f.document() && o.root().range().contains(f.range());
  }

  /** The rule that reports malformed suppressions; suppressing it would hide the problem it reports. */
  private static final String SUPPRESSION_RULE = "HL004";
}
