package dev.agentdesk.app;

import dev.agentdesk.app.cli.AgentdeskCommand;
import java.io.PrintWriter;
import java.io.StringWriter;

/** One in-process run of the {@code agentdesk} command line, as {@code Main} builds it for these arguments. */
public record CliRun(int exit, String out, String err) {
  public static CliRun run(String... args) {
    AgentdeskCommand.Invocation run = AgentdeskCommand.forArgs(args);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    PrintWriter o = new PrintWriter(out);
    PrintWriter e = new PrintWriter(err);
    int exit = run.execute(o, e);
    o.flush();
    e.flush();
    return new CliRun(exit, out.toString(), err.toString());
  }
}
