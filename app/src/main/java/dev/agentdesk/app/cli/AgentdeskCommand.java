package dev.agentdesk.app.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The root command. Each pillar contributes one subcommand class; register it here.
 *
 * <p>Exit codes follow picocli: 0 success, 1 a failure while running, 2 bad usage.
 */
@Command(
    name = "agentdesk",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
        "A desk for people who work with AI coding agents:",
        "  a sandbox computer (ACI v0), terminal supervision, and transcript history."
    },
    subcommands = {
        ServeCommand.class,
        RuntimeCommand.class,
        dev.agentdesk.app.sandbox.SandboxCommand.class,
        AciCommand.class,
        TermCommand.class,
        HistoryCommand.class,
        AgentCommand.class,
        McpCommand.class,
        dev.agentdesk.app.history.PricesCommand.class,
        dev.agentdesk.app.doctor.DoctorCommand.class,
        dev.agentdesk.app.dist.DistFilesCommand.class,
        dev.agentdesk.app.history.StatuslineCommand.class,
        CommandLine.HelpCommand.class
    })
public final class AgentdeskCommand implements Runnable {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** A command line configured the way the launcher runs it. */
  public static CommandLine newCommandLine() {
    CommandLine cl = new CommandLine(new AgentdeskCommand());
    // Lists of agents and providers come from their enums, so the help cannot fall behind the code.
    cl.getSubcommands().get("history").getCommandSpec().usageMessage().description(
        "Import, list, show, search and total the transcripts of " + Names.providerTitles() + ".");
    cl.setExecutionExceptionHandler(new FriendlyErrors());
    return cl;
  }
}
