package dev.agentdesk.app.history;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.app.cli.HistoryCommand;
import dev.agentdesk.app.cli.PlainOptions;
import dev.agentdesk.app.cli.UserError;
import dev.agentdesk.transcripts.CostMode;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.UsageGrouping;
import dev.agentdesk.transcripts.UsageQuery;
import dev.agentdesk.transcripts.UsageReport;
import dev.agentdesk.transcripts.UsageRow;
import dev.agentdesk.transcripts.cost.PriceFiles;
import dev.agentdesk.transcripts.records.TokenUsage;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code history usage}: token totals and their cost, each model response counted once. */
@Command(name = "usage", mixinStandardHelpOptions = true,
    description = {"Tokens and cost by day, week, month, session, model, provider, project or 5-hour block; each model"
        + " response is counted once.",
        "The filters keep responses, so a total is always the sum of the rows shown. Days, weeks (ISO), months and"
            + " the dates of --since/--until are in --timezone.",
        "Cost uses the price table of 'agentdesk prices'; a model without a price is named as unpriced, never $0."})
public final class HistoryUsageCommand implements Callable<Integer> {
  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @CommandLine.ParentCommand
  HistoryCommand parent;

  @CommandLine.Mixin
  DbOption db = new DbOption();

  @Option(names = "--by", defaultValue = "day",
      paramLabel = "day|week|month|session|model|provider|project|block|response",
      description = {"Grouping (default ${DEFAULT-VALUE}); week: ISO weeks (2026-W48); month: 2026-11;",
          "block: 5-hour usage windows (each starts at the hour of its first response, in UTC) with the active one's"
              + " burn rate and projection; response lists one session's responses (with --session)"},
      converter = GroupingConverter.class)
  UsageGrouping by;

  @Option(names = "--breakdown", description = "Per-model rows inside each row")
  boolean breakdown;

  @Option(names = "--order", paramLabel = "asc|desc", defaultValue = "asc",
      description = "Row order (default ${DEFAULT-VALUE}: oldest period first)")
  String order;

  @Option(names = {"--timezone", "-z"}, paramLabel = "ZONE",
      description = "Time zone of days, weeks, months, blocks and dates, e.g. Europe/Berlin or UTC (default the"
          + " machine's)")
  String timezone;

  @Option(names = "--since", paramLabel = "DAY", description = "Only responses on or after this day (YYYYMMDD or YYYY-MM-DD)")
  String since;

  @Option(names = "--until", paramLabel = "DAY", description = "Only responses on or before this day (inclusive)")
  String until;

  @Option(names = "--project", paramLabel = "NAME", description = "Only sessions of this project (its folder name)")
  String project;

  @Option(names = "--provider", paramLabel = "P", description = "Only sessions of this agent (claude, codex, …)")
  String provider;

  @Option(names = "--session", paramLabel = "ID", description = "Only this session (an unambiguous id prefix is enough)")
  String session;

  @Option(names = "--model", paramLabel = "MODEL", description = "Only responses of this model, as transcripts name it")
  String model;

  @Option(names = "--token-limit", paramLabel = "N|max",
      description = "With --by block: warn when a block exceeds N tokens or the active one is projected to; max is the"
          + " largest past block")
  String tokenLimit;

  @Option(names = "--live", description = "With --by block: redraw every --refresh seconds in the terminal until"
      + " Ctrl-C (without a terminal: print once)")
  boolean live;

  @Option(names = "--refresh", paramLabel = "SECONDS", defaultValue = "5", description = "Seconds between --live"
      + " redraws (default ${DEFAULT-VALUE})")
  int refresh;

  @Option(names = "--now", hidden = true, paramLabel = "INSTANT", description = "The time of the active block (tests)")
  String now;

  @Option(names = "--mode", paramLabel = "auto|calculate|display", defaultValue = "auto",
      description = {"Which cost cost_usd is (default ${DEFAULT-VALUE}): auto, the cost the agent recorded where it"
          + " recorded one (Claude Code's own session cost, OpenCode's per-message cost), else calculated;",
          "calculate, always from tokens and prices; display, only the recorded cost (0 where none). Where a"
              + " recorded cost exists the calculated one, the recorded one and their difference are shown beside"})
  String mode;

  @Option(names = "--limits", description = {"Instead of the usage: each provider's latest known usage windows (how"
      + " full, how long, when they reset), as Codex's rollouts and supervised terminals reported them",
      "(--provider keeps one provider's; times in --timezone)"})
  boolean limits;

  @Option(names = "--json", description = "Print JSON")
  boolean json;

  @Option(names = "--config-dir", paramLabel = "DIR", hidden = true,
      description = "Where prices.json and price-overrides.json are (default $XDG_CONFIG_HOME/agentdesk)")
  Path configDir;

  /** Where the report goes when picocli did not build this command ({@link #plain}). */
  private PrintWriter plainOut;
  private PrintWriter plainErr;

  /** The options {@link #plain} reads itself; {@code HistoryUsagePlainTest} holds them equal to picocli's. */
  static final Set<String> PLAIN_VALUED = Set.of("--by", "--order", "--timezone", "--since", "--until", "--project",
      "--provider", "--session", "--model", "--token-limit", "--refresh", "--now", "--mode", "--config-dir", "--db",
      "--db-url", "--db-url-file");
  static final Set<String> PLAIN_FLAGS = Set.of("--breakdown", "--live", "--limits", "--json");

  /**
   * This command set from {@code args} (the words after {@code history usage}) without picocli,
   * writing to {@code out} and {@code err}; null when they are anything but the plain options
   * ({@link PlainOptions}) or a value does not convert: picocli answers those. A report is run by
   * scripts and status bars over and over, and picocli's reflection is ~80 ms of its ~300 ms.
   */
  public static HistoryUsageCommand plain(String[] args, PrintWriter out, PrintWriter err) {
    Map<String, String> options = PlainOptions.parse(args, PLAIN_VALUED, PLAIN_FLAGS, Map.of("-z", "--timezone"));
    if (options == null) {
      return null;
    }
    HistoryUsageCommand c = new HistoryUsageCommand();
    c.by = UsageGrouping.DAY;
    c.order = "asc";
    c.refresh = 5;
    c.mode = "auto";
    try {
      for (Map.Entry<String, String> o : options.entrySet()) {
        String v = o.getValue();
        switch (o.getKey()) {
          case "--by" -> c.by = new GroupingConverter().convert(v);
          case "--order" -> c.order = v;
          case "--timezone" -> c.timezone = v;
          case "--since" -> c.since = v;
          case "--until" -> c.until = v;
          case "--project" -> c.project = v;
          case "--provider" -> c.provider = v;
          case "--session" -> c.session = v;
          case "--model" -> c.model = v;
          case "--token-limit" -> c.tokenLimit = v;
          case "--refresh" -> c.refresh = Integer.parseInt(v);
          case "--now" -> c.now = v;
          case "--mode" -> c.mode = v;
          case "--config-dir" -> c.configDir = Path.of(v);
          case "--db" -> c.db.db = Path.of(v);
          case "--db-url" -> c.db.url = v;
          case "--db-url-file" -> c.db.urlFile = Path.of(v);
          case "--breakdown" -> c.breakdown = true;
          case "--live" -> c.live = true;
          case "--limits" -> c.limits = true;
          default -> c.json = true;
        }
      }
    } catch (RuntimeException badValue) {
      return null;
    }
    c.plainOut = out;
    c.plainErr = err;
    return c;
  }

  /** Case-insensitive grouping names. */
  static final class GroupingConverter implements CommandLine.ITypeConverter<UsageGrouping> {
    @Override
    public UsageGrouping convert(String value) {
      try {
        return UsageGrouping.valueOf(value.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(
            "expected day, week, month, session, model, provider, project, block or response, not '" + value + "'");
      }
    }
  }

  /** The query the options describe. */
  UsageQuery query() {
    if (by == UsageGrouping.RESPONSE && session == null) {
      throw new UserError("--by response lists one session's responses: give --session ID");
    }
    if (!order.equalsIgnoreCase("asc") && !order.equalsIgnoreCase("desc")) {
      throw new UserError("--order is asc or desc, not '" + order + "'");
    }
    if ((tokenLimit != null || live) && by != UsageGrouping.BLOCK) {
      throw new UserError((live ? "--live" : "--token-limit") + " applies to --by block");
    }
    try {
      UsageQuery q = UsageQuery.of(by).zone(timezone == null ? ZoneId.systemDefault() : UsageQuery.parseZone(timezone))
          .between(since == null ? null : UsageQuery.parseDate(since), until == null ? null : UsageQuery.parseDate(until))
          .project(project).provider(provider == null ? null : Provider.parse(provider)).session(session).model(model)
          .breakdown(breakdown).descending(order.equalsIgnoreCase("desc")).mode(CostMode.parse(mode));
      if (q.since() != null && q.until() != null && q.until().isBefore(q.since())) {
        throw new UserError("--until " + until + " is before --since " + since);
      }
      return q;
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage());
    }
  }

  @Override
  public Integer call() throws Exception {
    UsageQuery q = query();
    PrintWriter err = plainErr != null ? plainErr : spec.commandLine().getErr();
    PrintWriter out = plainOut != null ? plainOut : spec.commandLine().getOut();
    if (limits) {
      printLimits(out, q);
      return 0;
    }
    Costs.Aside prices = new Costs.Aside(() -> Costs.load(configDir, err), "usage-prices");
    boolean redraw = live && System.console() != null && !json;
    while (true) {
      UsageReport report = HistorySupport.withHistory(db, parent, h -> h.usageReport(q, prices.get().table()));
      Instant at = now == null ? Instant.now() : Instant.parse(now);
      if (redraw) {
        out.print("\033[H\033[2J");
      }
      print(out, q, report, prices.get(), at);
      report.warnings().forEach(w -> err.println("warning: " + w));
      err.flush();
      if (!redraw) {
        return 0;
      }
      out.println("refreshing every " + refresh + " s; Ctrl-C to stop");
      out.flush();
      Thread.sleep(Math.max(1, refresh) * 1000L);
    }
  }

  private void print(PrintWriter out, UsageQuery q, UsageReport report, PriceFiles.Loaded prices, Instant at)
      throws Exception {
    Long limit;
    try {
      limit = UsageBlocksView.limit(tokenLimit, report, at);
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage());
    }
    String name = by.name().toLowerCase(Locale.ROOT);
    if (json) {
      ObjectNode o = JsonOut.object();
      o.put("by", name).put("timezone", q.zone().getId());
      ArrayNode a = o.putArray("rows");
      for (UsageRow r : report.rows()) {
        ObjectNode row = a.addObject().put("key", r.key());
        row(row, r);
        List<UsageRow> parts = report.breakdown().get(r.key());
        if (parts != null) {
          ArrayNode models = row.putArray("models");
          for (UsageRow p : parts) {
            row(models.addObject().put("model", p.key()), p);
          }
        }
      }
      ObjectNode total = o.putObject("total");
      row(total, report.total());
      if (by == UsageGrouping.BLOCK) {
        UsageBlocksView.put(o, report, at, limit);
      }
      Costs.putReport(o, report);
      prices.warnings().forEach(w -> ((ArrayNode) o.get("warnings")).add(w));
      out.println(JsonOut.write(o));
    } else if (by == UsageGrouping.BLOCK) {
      UsageBlocksView.print(out, report, q.zone(), at, limit);
      prices(out, report);
    } else {
      int width = by == UsageGrouping.SESSION || by == UsageGrouping.RESPONSE ? 40 : 28;
      // where an agent recorded a cost: the calculated and the recorded cost and their difference beside
      boolean recorded = report.total().recordedUsd() != null;
      out.printf("%-" + width + "s %9s %14s %14s %16s %16s %12s" + (recorded ? " %14s %14s %12s" : "") + "%n", name,
          "responses", "input", "output", "cache read", "cache creation", "cost_usd", "calculated", "recorded_usd",
          "difference");
      for (UsageRow r : report.rows()) {
        line(out, width, r.key(), r, recorded, "");
        for (UsageRow p : report.breakdown().getOrDefault(r.key(), List.of())) {
          line(out, width, p.key(), p, recorded, "  ");
        }
      }
      line(out, width, "total", report.total(), recorded, "");
      prices(out, report);
      if (recorded) {
        out.printf("cost_usd: %s%n", switch (report.mode()) {
          case AUTO -> "the agent's recorded cost where it recorded one, else calculated (--mode auto)";
          case CALCULATE -> "calculated from tokens and prices (--mode calculate)";
          case DISPLAY -> "the agent's recorded cost only, $0 where none (--mode display)";
        });
      }
    }
    out.flush();
  }

  private void printLimits(PrintWriter out, UsageQuery q) throws Exception {
    if (live || tokenLimit != null || breakdown) {
      throw new UserError("--limits shows the usage windows alone: leave out --live, --token-limit and --breakdown");
    }
    List<dev.agentdesk.transcripts.UsageLimit> known = UsageLimitsView.of(
        HistorySupport.withHistory(db, parent, h -> h.limits()), q.provider() == null ? null : q.provider().id());
    Instant at = now == null ? Instant.now() : Instant.parse(now);
    if (json) {
      ObjectNode o = JsonOut.object();
      o.put("timezone", q.zone().getId());
      UsageLimitsView.put(o, known, at);
      out.println(JsonOut.write(o));
    } else {
      UsageLimitsView.print(out, known, q.zone(), at);
    }
    out.flush();
  }

  private static void prices(PrintWriter out, UsageReport report) {
    out.printf("prices: %s %s%s%n", report.pricesSource(), report.pricesVersion(),
        report.pricesPublished() == null ? "" : " (published " + report.pricesPublished() + ")");
  }

  private static void row(ObjectNode o, UsageRow r) {
    o.put("responses", r.responses());
    TokenUsage u = r.usage();
    o.put("input_tokens", u.input()).put("output_tokens", u.output()).put("cache_read_tokens", u.cacheRead())
        .put("cache_creation_tokens", u.cacheCreation()).put("cache_creation_1h_tokens", u.cacheCreation1h());
    Costs.put(o, r);
  }

  /**
   * One table row; {@code withRecorded} adds the calculated cost, the agents' own figure and the
   * difference of the responses that have one ("-" where none has).
   */
  private static void line(PrintWriter out, int width, String key, UsageRow r, boolean withRecorded, String indent) {
    TokenUsage u = r.usage();
    String extra = "";
    if (withRecorded) {
      Double diff = r.differenceUsd();
      extra = String.format(Locale.ROOT, " %14s %14s %12s", Costs.usd(r.calculatedUsd()),
          r.recordedUsd() == null ? "-" : Costs.usd(r.recordedUsd()),
          diff == null ? "-" : (diff < 0 ? "-" : "+") + Costs.usd(Math.abs(diff)));
    }
    out.printf("%-" + width + "s %9d %14d %14d %16d %16d %12s%s%n",
        indent + HistorySupport.shorten(key, width - indent.length()), r.responses(),
        u.input(), u.output(), u.cacheRead(), u.cacheCreation(), Costs.cell(r), extra);
  }
}
