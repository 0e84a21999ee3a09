package io.hooklens.rules.lifecycle;

import io.hooklens.core.engine.Message;
import io.hooklens.core.engine.Rule;
import io.hooklens.core.engine.RuleContext;
import io.hooklens.core.engine.RuleInfo;
import io.hooklens.core.engine.Severity;
import io.hooklens.core.model.Handler;
import io.hooklens.core.model.HookDocument;
import io.hooklens.core.yaml.YScalar;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

@RuleInfo(
    id = "HL117",
    name = "lifecycle-exec-argv-with-spaces",
    summary = "The program of an exec hook is a whole command line in one string",
    severity = Severity.WARNING,
    fixable = true,
    remediation = "Put the program and each argument in their own list element, or run the line through a shell"
        + " with [\"/bin/sh\", \"-c\", \"...\"].",
    messages = {
        @Message(id = "split", text = "{0}: '{1}' is taken as the name of one executable, spaces included, so"
            + " the hook fails; split it into arguments: {2}."),
        @Message(id = "shell", text = "{0}: '{1}' is taken as the name of one executable, spaces included, so"
            + " the hook fails; it uses shell syntax, so run it through a shell: {2}.")
    })
public final class LifecycleExecArgvWithSpaces implements Rule {
  /** Quotes, operators, redirections, substitutions and variables: splitting on spaces is not enough. */
  private static final Pattern NEEDS_SHELL = Pattern.compile("[\"'`$|;&<>*]");
  /** Compiled once: {@code String.matches} compiles its pattern on every call. */
  private static final Pattern HAS_BLANK = Pattern.compile("(?s).*\\s.*");

  @Override
  public void check(HookDocument doc, RuleContext ctx) {
    for (Handler h : doc.handlers()) {
      ExecCommand cmd = ExecCommand.of(h);
      if (cmd == null || cmd.isEmpty()) {
        continue;
      }
      YScalar program = cmd.items().get(0);
      String line = program.value().trim();
      if (program.isTemplated() || !HAS_BLANK.matcher(line).matches()) {
        continue;
      }
      List<String> rest = cmd.argv().subList(1, cmd.items().size());
      if (NEEDS_SHELL.matcher(line).find() && rest.isEmpty()) {
        // Not applied by --fix: distroless images have no shell.
        ctx.report(program, "shell", h.describe(), line, json(List.of("/bin/sh", "-c", line)))
            .fix("Run it with /bin/sh -c", false, ctx.edits().splitItem(cmd.node(), 0, List.of("/bin/sh", "-c", line)));
      } else {
        List<String> argv = new ArrayList<>(Arrays.asList(line.split("\\s+")));
        argv.addAll(rest);
        List<String> words = Arrays.asList(line.split("\\s+"));
        // Splitting is what the author meant unless the string holds quotes or shell syntax.
        ctx.report(program, "split", h.describe(), line, json(argv))
            .fix("Split into arguments", !NEEDS_SHELL.matcher(line).find(), ctx.edits().splitItem(cmd.node(), 0, words));
      }
    }
  }

  private static String json(List<String> argv) {
    List<String> quoted = new ArrayList<>(argv.size());
    for (String a : argv) {
      quoted.add("\"" + a.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"");
    }
    return "[" + String.join(", ", quoted) + "]";
  }
}
