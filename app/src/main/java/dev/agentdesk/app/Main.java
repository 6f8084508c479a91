package dev.agentdesk.app;

import dev.agentdesk.app.cli.AgentdeskCommand;
import picocli.CommandLine;

/** Entry point of the {@code agentdesk} launcher. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    System.exit(AgentdeskCommand.newCommandLine().execute(args));
  }
}
