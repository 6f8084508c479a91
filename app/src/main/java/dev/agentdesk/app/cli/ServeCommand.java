package dev.agentdesk.app.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code agentdesk serve}: Run the web dashboard and REST/WebSocket API (terminals, history, sandboxes). */
@Command(name = "serve", mixinStandardHelpOptions = true, description = "Run the web dashboard and REST/WebSocket API (terminals, history, sandboxes).")
public final class ServeCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    throw new UserError("'agentdesk serve' is not built yet in this version; see README.md for what works today");
  }
}
