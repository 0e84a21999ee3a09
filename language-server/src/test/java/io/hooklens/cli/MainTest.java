package io.hooklens.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.lang.annotation.Annotation;
import java.lang.reflect.Field;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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

  @Test
  void helmsWorkerStartsFirstOnlyForACommandThatRendersAChartItNames(@TempDir Path dir) throws Exception {
    Path chart = Files.createDirectory(dir.resolve("chart"));
    Files.writeString(chart.resolve("Chart.yaml"), "apiVersion: v2\nname: chart\nversion: 1.0.0\n");
    Path file = Files.writeString(dir.resolve("pod.yaml"), "kind: Pod\n");
    assertTrue(Main.namesChart(new String[] {"lint", file.toString(), chart.toString()}));
    assertTrue(Main.namesChart(new String[] {"hooks", chart.resolve("Chart.yaml").toString()}));
    assertTrue(Main.namesChart(new String[] {"run", "--yes", chart.toString()}));
    assertFalse(Main.namesChart(new String[] {"lint", file.toString(), dir.toString()}), "a folder of charts");
    assertFalse(Main.namesChart(new String[] {"lint", "--helm", "/usr/bin/helm", chart.toString()}));
    assertFalse(Main.namesChart(new String[] {"lint", "--helm=helm", chart.toString()}));
    assertFalse(Main.namesChart(new String[] {"migrate", "dc", chart.toString()}));
    assertFalse(Main.namesChart(new String[] {"lint", "bad\0path", dir.resolve("missing").toString()}));
    assertFalse(Main.namesChart(new String[] {"lint"}));
  }

  @Test
  void everyCommandPrintsTheVersion() {
    String version = "hooklens " + HooklensCommand.version() + System.lineSeparator();
    for (String[] command : List.of(new String[] {"-V"}, new String[] {"lint", "-V"}, new String[] {"hooks", "-V"},
        new String[] {"run", "-V"}, new String[] {"rules", "-V"}, new String[] {"lsp", "-V"},
        new String[] {"version", "-V"}, new String[] {"migrate", "-V"}, new String[] {"migrate", "dc", "-V"})) {
      CliRun run = CliRun.of(command);
      assertEquals(0, run.exit(), String.join(" ", command) + ": " + run.err());
      assertEquals(version, run.out(), String.join(" ", command));
    }
  }

  /** Picocli reads annotations by reflection, with a proxy class per annotation type: most of a lint's start. */
  @Test
  void noCommandIsModelledWithAnnotations() {
    List<Class<?>> seen = new ArrayList<>();
    walk(Main.commandLine(), seen);
    assertTrue(seen.contains(LintCommand.class) && seen.contains(MigrateCommand.Dc.class), seen.toString());
    for (Class<?> c : seen) {
      assertEquals(List.of(), picocliAnnotations(c.getDeclaredAnnotations()), c.getName());
      for (Field f : c.getDeclaredFields()) {
        assertEquals(List.of(), picocliAnnotations(f.getDeclaredAnnotations()), c.getName() + "." + f.getName());
        if (f.getType().getPackageName().equals(Main.class.getPackageName())) {
          for (Field g : f.getType().getDeclaredFields()) {
            assertEquals(List.of(), picocliAnnotations(g.getDeclaredAnnotations()), f.getType() + "." + g.getName());
          }
        }
      }
    }
  }

  private static void walk(CommandLine cl, List<Class<?>> seen) {
    seen.add(cl.getCommandSpec().userObject().getClass());
    cl.getSubcommands().values().forEach(sub -> walk(sub, seen));
  }

  private static List<Annotation> picocliAnnotations(Annotation[] annotations) {
    return Arrays.stream(annotations).filter(a -> a.annotationType().getName().startsWith("picocli.")).toList();
  }

  private static List<String> names(CommandLine cl) {
    return List.copyOf(cl.getSubcommands().keySet());
  }
}
