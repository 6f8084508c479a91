package dev.agentdesk.app.history;

import dev.agentdesk.app.cli.HistoryCommand;
import dev.agentdesk.transcripts.assemble.DetailJson;
import dev.agentdesk.transcripts.assemble.DetailMarkdown;
import dev.agentdesk.transcripts.assemble.SessionDetail;
import dev.agentdesk.transcripts.UsageGrouping;
import dev.agentdesk.transcripts.UsageReport;
import dev.agentdesk.transcripts.UsageRow;
import dev.agentdesk.transcripts.cost.PriceFiles;
import java.io.PrintWriter;
import java.nio.file.Path;
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

  @Option(names = "--config-dir", paramLabel = "DIR", hidden = true,
      description = "Where prices.json and price-overrides.json are (default $XDG_CONFIG_HOME/agentdesk)")
  Path configDir;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    if (format != null && format.json) {
      // The detail JSON is the same document as 'history parse' (docs/session-detail.md): no cost in it.
      out.println(DetailJson.write(HistorySupport.withHistory(db, parent, h -> h.detail(id))));
      out.flush();
      return 0;
    }
    PrintWriter err = spec.commandLine().getErr();
    PriceFiles.Loaded prices = Costs.load(configDir, err);
    record Shown(SessionDetail detail, UsageReport cost) {}
    Shown shown = HistorySupport.withHistory(db, parent, h -> {
      SessionDetail d = h.detail(id);
      return new Shown(d, h.usageReport(UsageGrouping.MODEL, prices.table(), d.session().id()));
    });
    out.println(withCost(DetailMarkdown.write(shown.detail()), shown.cost()));
    out.flush();
    shown.cost().warnings().forEach(w -> err.println("warning: " + w));
    err.flush();
    return 0;
  }

  /** The markdown with a cost line after the token line: the total, and each model's share. */
  static String withCost(String markdown, UsageReport cost) {
    StringBuilder line = new StringBuilder("- cost: ").append(Costs.cell(cost.total()));
    if (cost.rows().size() > 1 || !cost.total().fullyPriced()) {
      line.append(" (");
      for (int i = 0; i < cost.rows().size(); i++) {
        UsageRow r = cost.rows().get(i);
        line.append(i == 0 ? "" : ", ").append(r.key()).append(' ').append(Costs.cell(r));
      }
      line.append(')');
    }
    line.append("; prices: ").append(cost.pricesSource().startsWith("@pydantic") ? "genai-prices" : cost.pricesSource())
        .append(' ').append(cost.pricesVersion());
    int at = markdown.indexOf("\n- messages:");
    if (at < 0) {
      return markdown;
    }
    int end = markdown.indexOf('\n', at + 1);
    return markdown.substring(0, end + 1) + line + markdown.substring(end);
  }
}
