package dev.agentdesk.app.history;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.app.cli.HistoryCommand;
import dev.agentdesk.app.cli.UserError;
import dev.agentdesk.transcripts.UsageGrouping;
import dev.agentdesk.transcripts.UsageReport;
import dev.agentdesk.transcripts.UsageRow;
import dev.agentdesk.transcripts.cost.PriceFiles;
import dev.agentdesk.transcripts.records.TokenUsage;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code history usage}: token totals and their cost, each model response counted once. */
@Command(name = "usage", mixinStandardHelpOptions = true,
    description = {"Tokens and cost by day, session, model, provider or project; each model response is counted once.",
        "Cost uses the price table of 'agentdesk prices'; a model without a price is named as unpriced, never $0."})
public final class HistoryUsageCommand implements Callable<Integer> {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @CommandLine.ParentCommand
  HistoryCommand parent;

  @CommandLine.Mixin
  DbOption db = new DbOption();

  @Option(names = "--by", defaultValue = "day", paramLabel = "day|session|model|provider|project|response",
      description = "Grouping (default ${DEFAULT-VALUE}); response lists one session's responses (with --session)",
      converter = GroupingConverter.class)
  UsageGrouping by;

  @Option(names = "--session", paramLabel = "ID", description = "Only this session (an unambiguous id prefix is enough)")
  String session;

  @Option(names = "--json", description = "Print JSON")
  boolean json;

  @Option(names = "--config-dir", paramLabel = "DIR", hidden = true,
      description = "Where prices.json and price-overrides.json are (default $XDG_CONFIG_HOME/agentdesk)")
  Path configDir;

  /** Case-insensitive grouping names. */
  static final class GroupingConverter implements CommandLine.ITypeConverter<UsageGrouping> {
    @Override
    public UsageGrouping convert(String value) {
      try {
        return UsageGrouping.valueOf(value.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(
            "expected day, session, model, provider, project or response, not '" + value + "'");
      }
    }
  }

  @Override
  public Integer call() throws Exception {
    if (by == UsageGrouping.RESPONSE && session == null) {
      throw new UserError("--by response lists one session's responses: give --session ID");
    }
    PrintWriter err = spec.commandLine().getErr();
    PriceFiles.Loaded prices = Costs.load(configDir, err);
    UsageReport report = HistorySupport.withHistory(db, parent, h -> h.usageReport(by, prices.table(), session));
    PrintWriter out = spec.commandLine().getOut();
    String name = by.name().toLowerCase(Locale.ROOT);
    if (json) {
      ObjectMapper m = new ObjectMapper();
      ObjectNode o = m.createObjectNode();
      o.put("by", name);
      ArrayNode a = o.putArray("rows");
      boolean bySession = by == UsageGrouping.SESSION;
      for (UsageRow r : report.rows()) {
        ObjectNode row = a.addObject().put("key", r.key());
        row(row, r);
        if (bySession) {
          // the agent's own figure beside the calculated one (null when it records none)
          row.put("recorded_cost_usd", report.recordedCostUsd().get(r.key()));
        }
      }
      ObjectNode total = o.putObject("total");
      row(total, report.total());
      if (bySession) {
        total.put("recorded_cost_usd", report.recordedCostTotal());
      }
      Costs.putReport(o, report);
      prices.warnings().forEach(w -> ((ArrayNode) o.get("warnings")).add(w));
      out.println(m.writeValueAsString(o));
    } else {
      int width = by == UsageGrouping.SESSION || by == UsageGrouping.RESPONSE ? 40 : 28;
      boolean recorded = by == UsageGrouping.SESSION && !report.recordedCostUsd().isEmpty();
      out.printf("%-" + width + "s %9s %14s %14s %16s %16s %12s" + (recorded ? " %14s" : "") + "%n", name,
          "responses", "input", "output", "cache read", "cache creation", "cost_usd", "recorded_usd");
      for (UsageRow r : report.rows()) {
        line(out, width, r.key(), r, recorded ? report.recordedCostUsd().get(r.key()) : null, recorded);
      }
      line(out, width, "total", report.total(), report.recordedCostTotal(), recorded);
      out.printf("prices: %s %s%s%n", report.pricesSource(), report.pricesVersion(),
          report.pricesPublished() == null ? "" : " (published " + report.pricesPublished() + ")");
    }
    out.flush();
    report.warnings().forEach(w -> err.println("warning: " + w));
    err.flush();
    return 0;
  }

  private static void row(ObjectNode o, UsageRow r) {
    o.put("responses", r.responses());
    TokenUsage u = r.usage();
    o.put("input_tokens", u.input()).put("output_tokens", u.output()).put("cache_read_tokens", u.cacheRead())
        .put("cache_creation_tokens", u.cacheCreation()).put("cache_creation_1h_tokens", u.cacheCreation1h());
    Costs.put(o, r);
  }

  /** One table row; {@code withRecorded} adds the agent's own figure ("-" when it records none). */
  private static void line(PrintWriter out, int width, String key, UsageRow r, Double recordedUsd,
      boolean withRecorded) {
    TokenUsage u = r.usage();
    out.printf("%-" + width + "s %9d %14d %14d %16d %16d %12s%s%n", HistorySupport.shorten(key, width), r.responses(),
        u.input(), u.output(), u.cacheRead(), u.cacheCreation(), Costs.cell(r),
        withRecorded ? String.format(Locale.ROOT, " %14s", recordedUsd == null ? "-" : Costs.usd(recordedUsd)) : "");
  }
}
