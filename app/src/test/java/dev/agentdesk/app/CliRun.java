package dev.agentdesk.app;

import dev.agentdesk.app.cli.AgentdeskCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** One in-process run of the {@code agentdesk} command line, as {@code Main} builds it for these arguments. */
public record CliRun(int exit, String out, String err) {
  public static CliRun run(String... args) {
    AgentdeskCommand.Invocation run = AgentdeskCommand.forArgs(args);
    CommandLine cl = run.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int exit = cl.execute(run.args());
    return new CliRun(exit, out.toString(), err.toString());
  }
}
