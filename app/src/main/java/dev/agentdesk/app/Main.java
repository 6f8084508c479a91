package dev.agentdesk.app;

import dev.agentdesk.app.cli.AgentdeskCommand;
import picocli.CommandLine;

/** Entry point of the {@code agentdesk} launcher. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    AgentdeskCommand.Invocation run = AgentdeskCommand.forArgs(args);
    System.exit(run.commandLine().execute(run.args()));
  }
}
