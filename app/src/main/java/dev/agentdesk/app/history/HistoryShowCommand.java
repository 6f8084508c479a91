package dev.agentdesk.app.history;

import dev.agentdesk.app.cli.HistoryCommand;
import dev.agentdesk.transcripts.assemble.DetailJson;
import dev.agentdesk.transcripts.assemble.DetailMarkdown;
import dev.agentdesk.transcripts.assemble.SessionDetail;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code history show ID}: one session's detail. */
@Command(name = "show", mixinStandardHelpOptions = true,
    description = "Show one imported session (an unambiguous id prefix is enough).")
public final class HistoryShowCommand implements Callable<Integer> {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @CommandLine.ParentCommand
  HistoryCommand parent;

  @CommandLine.Mixin
  DbOption db = new DbOption();

  @Parameters(paramLabel = "ID", description = "Session id")
  String id;

  @CommandLine.ArgGroup(exclusive = true)
  Format format = new Format();

  /** --json or --markdown (the default). */
  static final class Format {
    @Option(names = "--json", description = "The session detail JSON (docs/session-detail.md)")
    boolean json;

    @Option(names = "--markdown", description = "Markdown (the default)")
    boolean markdown;
  }

  @Override
  public Integer call() {
    SessionDetail detail = HistorySupport.withHistory(db, parent, h -> h.detail(id));
    PrintWriter out = spec.commandLine().getOut();
    out.println(format != null && format.json ? DetailJson.write(detail) : DetailMarkdown.write(detail));
    out.flush();
    return 0;
  }
}
