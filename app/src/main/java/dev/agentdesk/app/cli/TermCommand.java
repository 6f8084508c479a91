package dev.agentdesk.app.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code agentdesk term}: Terminal tools: render a byte stream with the VT engine, parse agent output, run an agent in a PTY. */
@Command(name = "term", mixinStandardHelpOptions = true, description = "Terminal tools: render a byte stream with the VT engine, parse agent output, run an agent in a PTY.")
public final class TermCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    throw new UserError("'agentdesk term' is not built yet in this version; see README.md for what works today");
  }
}
