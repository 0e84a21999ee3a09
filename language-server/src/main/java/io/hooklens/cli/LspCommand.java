package io.hooklens.cli;

import io.hooklens.core.engine.RuleRegistry;
import io.hooklens.lsp.LanguageServerRunner;
import io.hooklens.rules.BuiltInRules;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.Callable;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

public final class LspCommand implements Callable<Integer> {
  /** The name that runs this command. */
  static final String NAME = "lsp";

  private CommandSpec spec;
  Integer port;
  boolean stdio;

  /** This command's model. */
  CommandSpec spec() {
    spec = Specs.command(NAME, this);
    spec.usageMessage()
        .sortOptions(false)
        .header("Runs the Hooklens language server for editors.")
        .description("It gives diagnostics and an outline of the hooks of YAML and JSON manifests and Helm "
            + "chart templates.",
            "Speaks LSP over standard input and output, or with --port over a socket on 127.0.0.1. Logs go "
            + "to standard error.")
        .exitCodeListHeading("%nExit codes:%n")
        .exitCodeList(Specs.exitCodes(
            "0:the client sent shutdown, then exit",
            "1:the client exited or hung up without shutdown",
            "2:usage error, or the port cannot be opened",
            "3:internal error"));
    spec.addOption(Specs.option(Integer.class, () -> port, v -> port = v, "--port").paramLabel("N")
        .description("Listen on 127.0.0.1:N and serve the first client that connects (0: any free port, "
            + "which is printed on standard error), instead of standard input and output.").build());
    spec.addOption(Specs.option(boolean.class, () -> stdio, v -> stdio = v, "--stdio")
        .description("Serve over standard input and output (the default; accepted because many clients "
            + "pass it).").build());
    return Specs.withHelp(spec);
  }

  @Override
  public Integer call() {
    if (port != null && (port < 0 || port > 65535)) {
      throw new ParameterException(spec.commandLine(), "--port must be from 0 to 65535, not " + port);
    }
    if (port != null && stdio) {
      throw new ParameterException(spec.commandLine(), "--port and --stdio exclude each other");
    }
    PrintWriter err = spec.commandLine().getErr();
    logTo(err);
    RuleRegistry registry = BuiltInRules.registry();
    String version = HooklensCommand.version();
    if (port != null) {
      try {
        return LanguageServerRunner.serveSocket(registry, version, port, p -> {
          err.println("hooklens lsp: listening on 127.0.0.1:" + p);
          err.flush();
        });
      } catch (IOException e) {
        err.println("hooklens lsp: cannot listen on 127.0.0.1:" + port + ": " + e.getMessage());
        return ExitCodes.USAGE;
      }
    }
    // Standard output carries the protocol: anything else printed there would corrupt it, so whatever
    // a library prints goes to standard error instead.
    OutputStream protocolOut = new FileOutputStream(FileDescriptor.out);
    System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true));
    return LanguageServerRunner.serve(registry, version, new FileInputStream(FileDescriptor.in), protocolOut);
  }

  /** One line per record on standard error, for the server and for lsp4j. */
  private static void logTo(PrintWriter err) {
    LogManager.getLogManager().reset();
    Logger root = Logger.getLogger("");
    root.setLevel(Level.INFO);
    Handler handler = new Handler() {
      @Override
      public void publish(LogRecord r) {
        if (isLoggable(r)) {
          synchronized (err) {
            err.print(getFormatter().format(r));
            err.flush();
          }
        }
      }

      @Override
      public void flush() {
        err.flush();
      }

      @Override
      public void close() {
        err.flush();
      }
    };
    handler.setFormatter(new Formatter() {
      @Override
      public String format(LogRecord r) {
        StringWriter line = new StringWriter();
        PrintWriter out = new PrintWriter(line);
        out.println(LocalTime.now().truncatedTo(ChronoUnit.MILLIS) + " " + r.getLevel() + " " + r.getLoggerName()
            + ": " + formatMessage(r));
        if (r.getThrown() != null) {
          r.getThrown().printStackTrace(out);
        }
        out.flush();
        return line.toString();
      }
    });
    root.addHandler(handler);
  }
}
