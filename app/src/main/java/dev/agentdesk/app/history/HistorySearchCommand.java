package dev.agentdesk.app.history;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.agentdesk.app.cli.HistoryCommand;
import dev.agentdesk.app.cli.UserError;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.SearchFilter;
import dev.agentdesk.transcripts.SearchHit;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code history search QUERY}: ranked full-text matches with snippets. */
@Command(name = "search", mixinStandardHelpOptions = true,
    description = "Full-text search over messages, tool inputs and tool outputs (all words must match).")
public final class HistorySearchCommand implements Callable<Integer> {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @CommandLine.ParentCommand
  HistoryCommand parent;

  @CommandLine.Mixin
  DbOption db = new DbOption();

  @Parameters(paramLabel = "QUERY", arity = "1..*", description = "Words to find")
  List<String> words;

  @Option(names = "--limit", defaultValue = "20", description = "Most hits to show (default ${DEFAULT-VALUE})")
  int limit;

  @Option(names = "--json", description = "Print JSON")
  boolean json;

  @Option(names = "--provider", paramLabel = "P", completionCandidates = dev.agentdesk.app.cli.Names.Providers.class,
      description = "Only sessions of this provider: ${COMPLETION-CANDIDATES}")
  String provider;

  @Option(names = "--project", paramLabel = "NAME", description = "Only sessions of this project")
  String project;

  @Option(names = "--session", paramLabel = "ID", description = "Only this session (an unambiguous id prefix works)")
  String session;

  @Override
  public Integer call() throws Exception {
    if (limit <= 0) {
      throw new UserError("--limit must be positive");
    }
    String query = String.join(" ", words);
    Provider p;
    try {
      p = provider == null ? null : Provider.parse(provider);
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage());
    }
    // Filters go into the ranked query, so a filtered search still fills its limit.
    List<SearchHit> hits = HistorySupport.withHistory(db, parent, h -> h.search(query,
        new SearchFilter(p, project, session == null ? null : h.resolveSessionId(session)), limit));
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      ArrayNode a = JsonOut.array();
      for (SearchHit h : hits) {
        a.addObject().put("session_id", h.sessionId()).put("session_title", h.sessionTitle()).put("kind", h.kind())
            .put("ref", h.ref()).put("snippet", h.snippet()).put("rank", h.rank());
      }
      out.println(JsonOut.write(a));
    } else {
      if (hits.isEmpty()) {
        out.println("no matches for '" + query + "'");
      }
      for (SearchHit h : hits) {
        out.printf("%s  %s  (%s %s)%n    %s%n", h.sessionId(), HistorySupport.shorten(h.sessionTitle(), 60), h.kind(),
            h.ref(), HistorySupport.shorten(h.snippet(), 160));
      }
    }
    out.flush();
    return 0;
  }
}
