package dev.agentdesk.app.cli;

import picocli.CommandLine;

/**
 * Turns failures into one readable line on stderr instead of a stack trace. A {@link UserError}
 * (bad input the user can fix) exits 2 like a usage error; anything else exits 1. Set
 * {@code AGENTDESK_DEBUG=1} to see the stack trace.
 */
final class FriendlyErrors implements CommandLine.IExecutionExceptionHandler {
  @Override
  public int handleExecutionException(Exception ex, CommandLine cmd, CommandLine.ParseResult parseResult) {
    if ("1".equals(System.getenv("AGENTDESK_DEBUG"))) {
      ex.printStackTrace(cmd.getErr());
    }
    String message = ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getMessage();
    cmd.getErr().println(cmd.getColorScheme().errorText(cmd.getCommandSpec().qualifiedName() + ": " + message));
    if (ex instanceof UserError) {
      return CommandLine.ExitCode.USAGE;
    }
    return CommandLine.ExitCode.SOFTWARE;
  }
}
