package dev.agentdesk.app;

import dev.agentdesk.app.cli.AgentdeskCommand;

/** Entry point of the {@code agentdesk} launcher. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    AgentdeskCommand.Invocation run = AgentdeskCommand.forArgs(args);
    System.exit(run.execute(null, null));
  }
}
