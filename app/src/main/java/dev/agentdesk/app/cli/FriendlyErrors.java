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
    return report(ex, cmd.getErr(), cmd.getColorScheme(), cmd.getCommandSpec().qualifiedName());
  }

  /** The line for {@code ex} of the command {@code name} on {@code err}; the exit code. */
  static int report(Exception ex, java.io.PrintWriter err, CommandLine.Help.ColorScheme colors, String name) {
    if ("1".equals(System.getenv("AGENTDESK_DEBUG"))) {
      ex.printStackTrace(err);
    }
    String message = ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getMessage();
    err.println(colors.errorText(name + ": " + message));
    err.flush();
    if (ex instanceof UserError) {
      return CommandLine.ExitCode.USAGE;
    }
    return CommandLine.ExitCode.SOFTWARE;
  }
}
