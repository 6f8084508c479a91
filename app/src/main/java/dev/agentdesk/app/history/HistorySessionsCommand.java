package dev.agentdesk.app.history;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.app.cli.HistoryCommand;
import dev.agentdesk.app.cli.UserError;
import dev.agentdesk.transcripts.Page;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.SessionQuery;
import dev.agentdesk.transcripts.SessionSummary;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code history sessions}: the imported sessions, most recent first. */
@Command(name = "sessions", mixinStandardHelpOptions = true, description = "List imported sessions, most recent first.")
public final class HistorySessionsCommand implements Callable<Integer> {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @CommandLine.ParentCommand
  HistoryCommand parent;

  @CommandLine.Mixin
  DbOption db = new DbOption();

  @Option(names = "--provider", paramLabel = "P", completionCandidates = dev.agentdesk.app.cli.Names.Providers.class,
      description = "${COMPLETION-CANDIDATES}")
  String provider;

  @Option(names = "--project", paramLabel = "NAME", description = "Only this project (directory name)")
  String project;

  @Option(names = "--subagents", description = "Also list subagent transcripts")
  boolean subagents;

  @Option(names = "--limit", defaultValue = "50", description = "Page size (default ${DEFAULT-VALUE})")
  int limit;

  @Option(names = "--offset", defaultValue = "0", description = "Skip this many sessions")
  int offset;

  @Option(names = "--json", description = "Print JSON")
  boolean json;

  @Override
  public Integer call() throws Exception {
    Provider p;
    try {
      p = provider == null ? null : Provider.parse(provider);
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage());
    }
    if (limit <= 0 || offset < 0) {
      throw new UserError("--limit must be positive and --offset non-negative");
    }
    Page<SessionSummary> page = HistorySupport.withHistory(db, parent,
        h -> h.sessions(new SessionQuery(p, project, null, subagents, limit, offset)));
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      ObjectNode o = JsonOut.object();
      o.put("total", page.total());
      o.put("offset", page.offset());
      ArrayNode items = o.putArray("sessions");
      for (SessionSummary s : page.items()) {
        items.addObject().put("id", s.id()).put("source", s.source()).put("title", s.title())
            .put("project", s.project()).put("cwd", s.cwd()).put("git_branch", s.gitBranch())
            .put("started_at", s.startedAt()).put("ended_at", s.endedAt()).put("message_count", s.messageCount())
            .put("parent_session_id", s.parentSessionId())
            // the agent's own figure of the session's cost (null when it records none)
            .put("recorded_cost_usd", s.recordedCostUsd());
      }
      out.println(JsonOut.write(o));
    } else {
      if (page.items().isEmpty()) {
        out.println("no sessions (import with 'agentdesk history import')");
      }
      for (SessionSummary s : page.items()) {
        out.printf("%-36s  %-6s  %-16s  %5d msgs  %-18s  %s%n", s.id(), s.source(),
            HistorySupport.nz(s.endedAt()).replace('T', ' ').replaceAll("\\.\\d+Z$", ""), s.messageCount(),
            HistorySupport.shorten(s.project(), 18), HistorySupport.shorten(s.title(), 60));
      }
      if (page.total() > page.offset() + page.items().size()) {
        out.printf("(%d of %d; --offset %d for more)%n", page.items().size(), page.total(),
            page.offset() + page.items().size());
      }
    }
    out.flush();
    return 0;
  }
}
