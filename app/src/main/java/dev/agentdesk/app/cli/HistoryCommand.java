package dev.agentdesk.app.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code agentdesk history}: Import, list, show, search and total Claude Code and Codex transcripts. */
@Command(name = "history", mixinStandardHelpOptions = true, description = "Import, list, show, search and total Claude Code and Codex transcripts.")
public final class HistoryCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    throw new UserError("'agentdesk history' is not built yet in this version; see README.md for what works today");
  }
}
