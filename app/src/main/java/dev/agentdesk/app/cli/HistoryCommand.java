package dev.agentdesk.app.cli;

import dev.agentdesk.app.history.DbOption;
import dev.agentdesk.app.history.HistoryImportCommand;
import dev.agentdesk.app.history.HistoryParseCommand;
import dev.agentdesk.app.history.HistorySearchCommand;
import dev.agentdesk.app.history.HistorySessionsCommand;
import dev.agentdesk.app.history.HistoryShowCommand;
import dev.agentdesk.app.history.HistoryUsageCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code agentdesk history}: import, list, show, search and total the agents' transcripts. */
@Command(name = "history", mixinStandardHelpOptions = true,
    // The description names every provider; AgentdeskCommand sets it from the Provider enum.
    description = "Import, list, show, search and total the agents' transcripts.",
    subcommands = {HistoryImportCommand.class, HistorySessionsCommand.class, HistoryShowCommand.class,
        HistorySearchCommand.class, HistoryParseCommand.class, HistoryUsageCommand.class})
public final class HistoryCommand implements Runnable {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  /** {@code history --db F SUB ...} sets the database for the subcommand too. */
  @CommandLine.Mixin
  public DbOption db = new DbOption();

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}
