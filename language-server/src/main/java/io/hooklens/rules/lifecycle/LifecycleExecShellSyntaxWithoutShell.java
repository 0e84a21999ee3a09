package io.hooklens.rules.lifecycle;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.Handler;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.yaml.YScalar;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

@RuleInfo(
    id = "HL116",
    name = "lifecycle-exec-shell-syntax-without-shell",
    summary = "An exec hook uses shell syntax but runs no shell",
    severity = Severity.WARNING,
    remediation = "Run the command through a shell, [\"/bin/sh\", \"-c\", \"<the whole command line>\"] (the image"
        + " must contain one), or drop the shell syntax.",
    messages = {
        @Message(id = "literal", text = "{0} runs '{1}' directly, without a shell, so {2} '{3}' is passed to it"
            + " as a literal argument and nothing interprets it."),
        @Message(id = "literalProgram", text = "{0}: no shell runs, so {1} '{2}' in the program name is not"
            + " expanded and the runtime looks for a file named '{3}'."),
        @Message(id = "k8sRef", text = "{0}: '{1}' is passed to '{2}' literally; Kubernetes expands $(VAR)"
            + " references only in a container's command, args and env, not in hooks, and exec runs no shell."),
        @Message(id = "glob", text = "{0} runs '{1}' directly, without a shell, so the glob '{2}' is not"
            + " expanded and '{1}' looks for a file of exactly that name.")
    })
public final class LifecycleExecShellSyntaxWithoutShell implements Rule {
  /** Operators that are shell syntax when they stand alone as an argument. */
  private static final Set<String> OPERATORS = Set.of("|", "||", "&&", "&", ";", "<", "<<", ">", ">>", "2>",
      "2>>", "&>", "2>&1", "1>&2", ">&2");

  /** Operators that stay shell syntax as a word inside a longer argument (";" is common in prose). */
  private static final Set<String> WORD_OPERATORS = Set.of("|", "||", "&&");

  /** A redirection glued to its target: {@code >/dev/null}, {@code 2>&1}, {@code >>/tmp/log}. */
  private static final Pattern REDIRECT = Pattern.compile("^(?:[12]?>>?|&>)(?:/\\S*|&[12])$");

  /** {@code $(...)}; content that is a bare name is a Kubernetes-style reference. */
  private static final Pattern SUBSTITUTION = Pattern.compile("\\$\\(([^()]*)\\)");
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  /** {@code `cmd`}. */
  private static final Pattern BACKTICKS = Pattern.compile("`[^`]+`");

  /** {@code $NAME}, not part of a crypt-style {@code $id$salt$} string. */
  private static final Pattern VARIABLE = Pattern.compile("\\$([A-Za-z_][A-Za-z0-9_]*+)(?![$])");

  /** An environment-style name: {@code -p$DB_PASSWORD} means expansion even though it is glued to a word. */
  private static final Pattern ENV_NAME = Pattern.compile("[A-Z][A-Z0-9_]+");

  /**
   * A whole argument, or an option's value ({@code --password=$X}, {@code -p$X}), that is nothing but an
   * environment-style variable or a {@code $(NAME)} reference.
   */
  private static final Pattern VALUE_IS_VARIABLE = Pattern.compile(
      "^(?:--?[A-Za-z][A-Za-z0-9-]*=|-[A-Za-z])?(\\$[A-Z_][A-Z0-9_]*+|\\$\\([A-Za-z_][A-Za-z0-9_]*\\))$");

  /** Programs that take shell operator characters as ordinary arguments. */
  private static final Set<String> OPERATOR_ARGS = Set.of("expr", "test", "[", "[[");

  /**
   * Programs whose arguments are code or patterns in a language of their own, where {@code |}, {@code &&},
   * {@code $x} and quotes mean something to the program itself.
   */
  private static final Set<String> OWN_LANGUAGE = Set.of("awk", "gawk", "mawk", "nawk", "sed", "jq", "yq",
      "grep", "egrep", "fgrep", "rg", "perl", "ruby", "node", "nodejs", "php", "lua", "psql", "mysql", "mariadb",
      "sqlite3", "mongo", "mongosh", "cqlsh", "nginx");
  private static final Pattern PYTHON = Pattern.compile("python[0-9.]*");
  // Compiled once: String.matches and split compile their pattern on every call, a rule's main cost on many hooks.
  private static final Pattern HAS_BLANK = Pattern.compile("(?s).*\\s.*");
  private static final Pattern FIND_EXEC = Pattern.compile("-(exec|execdir|ok|okdir)");
  private static final Pattern BLANKS = Pattern.compile("\\s+");
  private static final Pattern ONE_LINE_WITH_BLANK = Pattern.compile(".*\\s.*");

  /** File utilities for which an unexpanded glob in an absolute path is clearly a mistake. */
  private static final Set<String> FILE_TOOLS = Set.of("rm", "cp", "mv", "ls", "cat", "chmod", "chown", "touch",
      "ln", "rmdir", "truncate");

  /** A token found in an argument and how to describe it. */
  private record Token(String messageId, String text, String what) {}

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Handler h : doc.handlers()) {
      ExecCommand cmd = ExecCommand.of(h);
      if (cmd == null || cmd.isEmpty() || cmd.items().get(0).isTemplated() || cmd.runsShell()) {
        continue;
      }
      String program = cmd.program();
      List<YScalar> items = cmd.items();
      // A program name with spaces is HL117's finding; otherwise it is checked like the arguments.
      int first = HAS_BLANK.matcher(items.get(0).value().trim()).matches() ? 1 : 0;
      for (int i = first; i < items.size(); i++) {
        YScalar arg = items.get(i);
        if (arg.isTemplated()) {
          continue;
        }
        Token t = token(arg.value(), program, items.subList(0, i));
        if (t != null) {
          String shown = items.get(0).value();
          if (i == 0) {
            ctx.report(arg, "literalProgram", h.describe(), t.what(), t.text(), shown);
          } else if (t.messageId().equals("k8sRef")) {
            ctx.report(arg, "k8sRef", h.describe(), t.text(), shown);
          } else if (t.messageId().equals("glob")) {
            ctx.report(arg, "glob", h.describe(), shown, t.text());
          } else {
            ctx.report(arg, "literal", h.describe(), shown, t.what(), t.text());
          }
          break;
        }
      }
    }
  }

  /** The first shell construct of an argument, or null. {@code preceding} are the arguments before it. */
  private static Token token(String arg, String program, List<YScalar> preceding) {
    String trimmed = arg.trim();
    if (OPERATORS.contains(trimmed)) {
      // find takes a literal ";" to end -exec, and expr and test take operators as arguments.
      boolean findEnd = trimmed.equals(";")
          && preceding.stream().anyMatch(s -> FIND_EXEC.matcher(s.value()).matches());
      return findEnd || OPERATOR_ARGS.contains(program) ? null : new Token("literal", trimmed, "the operator");
    }
    if (OWN_LANGUAGE.contains(program) || PYTHON.matcher(program).matches()) {
      // Only a whole value is clear here: inside code or a pattern, $x and | belong to the program.
      Matcher v = VALUE_IS_VARIABLE.matcher(trimmed);
      if (!v.matches()) {
        return null;
      }
      return v.group(1).startsWith("$(") ? new Token("k8sRef", v.group(1), "the reference")
          : new Token("literal", v.group(1), "the variable");
    }
    for (String word : BLANKS.split(trimmed)) {
      if (WORD_OPERATORS.contains(word)) {
        return new Token("literal", word, "the operator");
      }
      if (REDIRECT.matcher(word).matches()) {
        return new Token("literal", word, "the redirection");
      }
    }
    Matcher sub = SUBSTITUTION.matcher(arg);
    if (sub.find()) {
      return NAME.matcher(sub.group(1)).matches() ? new Token("k8sRef", sub.group(), "the reference")
          : new Token("literal", sub.group(), "the command substitution");
    }
    Matcher tick = BACKTICKS.matcher(arg);
    if (tick.find()) {
      return new Token("literal", tick.group(), "the command substitution");
    }
    Matcher var = VARIABLE.matcher(arg);
    while (var.find()) {
      char before = var.start() == 0 ? ' ' : arg.charAt(var.start() - 1);
      boolean escaped = before == '\\' || before == '$';
      boolean wordStart = !Character.isLetterOrDigit(before) && before != '_';
      if (!escaped && (wordStart || ENV_NAME.matcher(var.group(1)).matches())) {
        return new Token("literal", var.group(), "the variable");
      }
    }
    if (FILE_TOOLS.contains(program) && trimmed.startsWith("/") && trimmed.contains("*")
        && !ONE_LINE_WITH_BLANK.matcher(trimmed).matches()) {
      return new Token("glob", trimmed, "the glob");
    }
    return null;
  }
}
