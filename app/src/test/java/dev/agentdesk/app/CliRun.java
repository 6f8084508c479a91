package dev.agentdesk.app;

import dev.agentdesk.app.cli.AgentdeskCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** One in-process run of the {@code agentdesk} command line, as the launcher configures it. */
public record CliRun(int exit, String out, String err) {
  public static CliRun run(String... args) {
    CommandLine cl = AgentdeskCommand.newCommandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int exit = cl.execute(args);
    return new CliRun(exit, out.toString(), err.toString());
  }
}
