package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class MainTest {
  private static final List<String> ALL = List.of("lint", "hooks", "run", "rules", "lsp", "version", "cds-training",
      "migrate");

  @Test
  void aNamedCommandIsTheOnlyOneBuilt() {
    assertEquals(List.of("lint"), names(Main.commandLine(new String[] {"lint", "x.yaml"})));
    assertEquals(List.of("version"), names(Main.commandLine(new String[] {"version"})));
  }

  @Test
  void withoutACommandNameEveryCommandIsThereForHelpAndSuggestions() {
    assertEquals(ALL, names(Main.commandLine(new String[] {"--help"})));
    assertEquals(ALL, names(Main.commandLine(new String[] {"lnt"})));
    assertEquals(ALL, names(Main.commandLine(new String[0])));
  }

  @Test
  void aCommandBuiltAloneKeepsItsFullName() {
    String[] args = {"lint", "--help"};
    CommandLine cl = Main.commandLine(args);
    StringWriter out = new StringWriter();
    cl.setOut(new PrintWriter(out));
    assertEquals(0, cl.execute(args));
    assertTrue(out.toString().contains("Usage: hooklens lint "), out.toString());
  }

  private static List<String> names(CommandLine cl) {
    return List.copyOf(cl.getSubcommands().keySet());
  }
}
