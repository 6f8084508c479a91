package dev.agentdesk.app.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code agentdesk term parse}: Replay a capture through the output parser and print one JSON event per line. */
@Command(name = "parse", mixinStandardHelpOptions = true, description = "Replay a capture through the output parser and print one JSON event per line.")
public final class TermParseCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    throw new UserError("'agentdesk term parse' is not built yet in this version; see README.md for what works today");
  }
}
