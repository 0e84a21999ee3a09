package io.hooklens.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs the command line in-process with captured output, as picocli recommends for tests. */
record CliRun(int exit, String out, String err) {
  static CliRun of(String... args) {
    CommandLine cl = Main.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int exit = cl.execute(args);
    return new CliRun(exit, out.toString(), err.toString());
  }
}
