package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class HelpTest {
  /** A command's line in the list: two spaces, the name, and its summary after more spaces. */
  private static final Pattern COMMAND = Pattern.compile("^  (\\S+)\\s+(.*)$");

  @Test
  void everyCommandHasAOneSentenceSummaryThatItsOwnHelpStartsWith() {
    CliRun help = CliRun.of("--help");
    assertEquals(0, help.exit(), help.err());
    List<String> lines = help.out().lines().toList();
    int first = lines.indexOf("Commands:") + 1;
    assertTrue(first > 0, help.out());
    Map<String, String> summaries = new LinkedHashMap<>();
    for (String line : lines.subList(first, lines.size())) {
      if (line.isBlank()) {
        break;
      }
      Matcher m = COMMAND.matcher(line);
      assertTrue(m.matches(), "a summary continued on another line: \"" + line + "\"\n" + help.out());
      summaries.put(m.group(1), m.group(2));
    }
    List<String> visible = Main.commandLine().getSubcommands().values().stream()
        .filter(c -> !c.getCommandSpec().usageMessage().hidden()).map(c -> c.getCommandName()).toList();
    assertEquals(visible, List.copyOf(summaries.keySet()), help.out());
    summaries.forEach((name, summary) -> {
      assertTrue(summary.endsWith("."), name + ": \"" + summary + "\" is no sentence");
      String own = CliRun.of(name, "--help").out().lines().findFirst().orElse("");
      assertEquals(summary, own, name + " --help starts with its summary");
    });
  }
}
