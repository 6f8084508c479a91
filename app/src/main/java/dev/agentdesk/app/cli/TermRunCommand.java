package dev.agentdesk.app.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code agentdesk term run}: Run a command in a supervised PTY attached to this terminal, writing parsed events. */
@Command(name = "run", mixinStandardHelpOptions = true, description = "Run a command in a supervised PTY attached to this terminal, writing parsed events.")
public final class TermRunCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    throw new UserError("'agentdesk term run' is not built yet in this version; see README.md for what works today");
  }
}
