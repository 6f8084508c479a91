package dev.agentdesk.app.cli;

import dev.agentdesk.app.history.HistoryUsageCommand;
import dev.agentdesk.app.history.StatuslineCommand;
import java.io.PrintWriter;
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
        StatuslineCommand.class,
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
    describeHistory(cl.getSubcommands().get("history"));
    cl.setExecutionExceptionHandler(new FriendlyErrors());
    return cl;
  }

  /** What runs a command line: picocli's parse and run, or the status line's own short path. */
  public sealed interface Invocation {
    /** Runs it, writing to {@code out} and {@code err} (null: the process's stdout and stderr); its exit code. */
    int execute(PrintWriter out, PrintWriter err);
  }

  /** {@code commandLine} parsing and running {@code args}. */
  record Parsed(CommandLine commandLine, String[] args) implements Invocation {
    @Override
    public int execute(PrintWriter out, PrintWriter err) {
      if (out != null) {
        commandLine.setOut(out);
      }
      if (err != null) {
        commandLine.setErr(err);
      }
      return commandLine.execute(args);
    }
  }

  /** {@code agentdesk statusline} with only its plain options, run without building picocli's model (ADR 0040). */
  record PlainStatusline(String[] args) implements Invocation {  // args: "statusline" and its options
    @Override
    public int execute(PrintWriter out, PrintWriter err) {
      PrintWriter to = out != null ? out : new PrintWriter(System.out, true);
      StatuslineCommand plain = StatuslineCommand.plain(java.util.Arrays.copyOfRange(args, 1, args.length), to);
      return plain != null ? plain.call() : alone(new CommandLine(new StatuslineCommand()), 1, args).execute(out, err);
    }
  }

  /**
   * {@code agentdesk history usage} with only its plain options, run without building picocli's
   * model; a failure is reported as {@link FriendlyErrors} reports it under picocli.
   */
  record PlainUsage(String[] args) implements Invocation {  // args: "history", "usage" and its options
    @Override
    public int execute(PrintWriter out, PrintWriter err) {
      PrintWriter to = out != null ? out : new PrintWriter(System.out, true);
      PrintWriter problems = err != null ? err : new PrintWriter(System.err, true);
      HistoryUsageCommand plain = HistoryUsageCommand.plain(java.util.Arrays.copyOfRange(args, 2, args.length), to,
          problems);
      if (plain == null) {
        return alone(new CommandLine(new HistoryUsageCommand()), 2, args).execute(out, err);
      }
      try {
        return plain.call();
      } catch (Exception e) {
        return FriendlyErrors.report(e, problems, CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.AUTO),
            "agentdesk history usage");
      }
    }
  }

  /**
   * What {@code main} runs for {@code args}: for the short commands that run often ({@code
   * statusline}, {@code history …}) only their own command tree, named as under the root. picocli
   * builds every command it is given by reflection before parsing, and the whole tree is a good part
   * of such a command's start-up; everything else gets the whole tree ({@link #newCommandLine()}).
   */
  public static Invocation forArgs(String[] args) {
    if (args.length > 1 && args[0].equals("history") && args[1].equals("usage")) {
      return new PlainUsage(args);
    }
    Object report = args.length > 1 && args[0].equals("history") ? historyReport(args[1]) : null;
    if (report != null) {
      // A report alone: picocli reflects over every command it is given, and the five other history
      // commands cost a short report ~30 ms of its start (ADR 0039). Options before the report's name
      // ('history --db F usage') keep the whole history tree.
      return alone(new CommandLine(report), 2, args);
    }
    if (args.length > 0 && args[0].equals("statusline")) {
      return new PlainStatusline(args);
    }
    if (args.length > 0 && args[0].equals("history")) {
      return alone(describeHistory(new CommandLine(new HistoryCommand())), 1, args);
    }
    return new Parsed(newCommandLine(), args);
  }

  /** {@code cl} run on its own for the arguments after its first {@code words}, named as under the root. */
  private static Invocation alone(CommandLine cl, int words, String[] args) {
    cl.setCommandName("agentdesk " + String.join(" ", java.util.Arrays.copyOfRange(args, 0, words)));
    cl.getCommandSpec().versionProvider(new VersionProvider());
    cl.setExecutionExceptionHandler(new FriendlyErrors());
    return new Parsed(cl, java.util.Arrays.copyOfRange(args, words, args.length));
  }

  /** The history report named {@code name}, as a command of its own; null for any other word. */
  private static Object historyReport(String name) {
    return switch (name) {
      case "usage" -> new HistoryUsageCommand();
      case "sessions" -> new dev.agentdesk.app.history.HistorySessionsCommand();
      case "show" -> new dev.agentdesk.app.history.HistoryShowCommand();
      case "search" -> new dev.agentdesk.app.history.HistorySearchCommand();
      default -> null;
    };
  }

  private static CommandLine describeHistory(CommandLine history) {
    // Lists of agents and providers come from their enums, so the help cannot fall behind the code.
    history.getCommandSpec().usageMessage().description(
        "Import, list, show, search and total the transcripts of " + Names.providerTitles() + ".");
    return history;
  }
}
