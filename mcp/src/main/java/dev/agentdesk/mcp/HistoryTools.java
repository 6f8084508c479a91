package dev.agentdesk.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.transcripts.Page;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.SearchFilter;
import dev.agentdesk.transcripts.SearchHit;
import dev.agentdesk.transcripts.SessionQuery;
import dev.agentdesk.transcripts.SessionSummary;
import dev.agentdesk.transcripts.UsageBlock;
import dev.agentdesk.transcripts.UsageGrouping;
import dev.agentdesk.transcripts.UsageQuery;
import dev.agentdesk.transcripts.UsageReport;
import dev.agentdesk.transcripts.UsageRow;
import dev.agentdesk.transcripts.assemble.DetailJson;
import dev.agentdesk.transcripts.cost.PriceFiles;
import java.io.IOException;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** history_search, history_session, history_usage, history_limits and history_sessions over the transcripts database. */
final class HistoryTools {
  static final int MAX_HITS = 200;
  static final int MAX_PAGE = 500;
  private static final List<String> PROVIDERS = java.util.Arrays.stream(Provider.values()).map(Provider::id).toList();
  /** "Claude Code, Codex, …": the descriptions agents read name every provider the history reads. */
  private static final String PROVIDER_TITLES = java.util.Arrays.stream(Provider.values()).map(Provider::title)
      .collect(java.util.stream.Collectors.joining(", "));
  private static final List<String> GROUPINGS = List.of("day", "week", "month", "model", "session", "provider",
      "project", "block");

  private final HistoryAccess history;

  HistoryTools(HistoryAccess history) {
    this.history = history;
  }

  List<ToolDef> tools() {
    return List.of(search(), session(), usage(), limits(), sessions());
  }

  // ---- history_search ----

  private ToolDef search() {
    Map<String, Object> in = Schema.object()
        .req("query", Schema.string("Words to find (full-text; a phrase in double quotes)", 1, 500))
        .opt("provider", Schema.oneOf("Only sessions of this agent", PROVIDERS))
        .opt("project", Schema.string("Only sessions of this project (its folder name)"))
        .opt("limit", Schema.integer("How many hits at most (default 20)", 1, MAX_HITS))
        .build();
    Map<String, Object> hit = Schema.object()
        .req("session_id", Schema.string("The session; read it with history_session"))
        .opt("session_title", Schema.string(null))
        .req("kind", Schema.oneOf("Where the words were found", List.of("message", "tool_input", "tool_output")))
        .req("ref", Schema.string("The message uuid or tool call id inside the session"))
        .req("snippet", Schema.string("The matching text, matched words in [brackets]"))
        .req("rank", Schema.number("Relevance; lower is better"))
        .build();
    Map<String, Object> out = Schema.object()
        .req("query", Schema.string(null))
        .req("hits", Schema.array("Best first", hit))
        .build();
    return ToolDef.read("history_search", "Search the history",
        "Full-text search over every imported agent transcript (" + PROVIDER_TITLES + "): ranked hits with the"
            + " session id, the message or tool call they are in, and a snippet.",
        in, out, args -> {
          String q = args.string("query").trim();
          if (q.length() > 500) {
            throw args.bad("query is longer than 500 characters");
          }
          Provider provider = provider(args);
          String project = blankToNull(args.optString("project"));
          int limit = args.intOr("limit", 1, MAX_HITS, 20);
          List<SearchHit> hits = history.read(h -> h.search(q, new SearchFilter(provider, project, null), limit));
          ObjectNode result = Jsons.object().put("query", q);
          ArrayNode arr = result.putArray("hits");
          for (SearchHit sh : hits) {
            arr.addObject().put("session_id", sh.sessionId()).put("session_title", sh.sessionTitle())
                .put("kind", sh.kind()).put("ref", sh.ref()).put("snippet", sh.snippet()).put("rank", sh.rank());
          }
          return ToolDef.Outcome.of(result);
        });
  }

  // ---- history_session ----

  private ToolDef session() {
    Map<String, Object> in = Schema.object()
        .req("id", Schema.string("A session id, or an unambiguous prefix of one"))
        .opt("offset", Schema.integer("First entry to return (default 0)", 0, Integer.MAX_VALUE))
        .opt("limit", Schema.integer("How many entries at most (default 50)", 1, MAX_PAGE))
        .build();
    Map<String, Object> header = Schema.object()
        .req("id", Schema.string(null))
        .opt("source", Schema.string(Provider.idsOr()))
        .opt("title", Schema.string(null))
        .opt("project", Schema.string(null))
        .opt("cwd", Schema.string(null))
        .opt("git_branch", Schema.string(null))
        .opt("version", Schema.string(null))
        .opt("started_at", Schema.string(null))
        .opt("ended_at", Schema.string(null))
        .req("message_count", Schema.integer(null))
        .opt("parent_session_id", Schema.string(null))
        .opt("agent_type", Schema.string(null))
        .opt("usage", Schema.anyObject("Token totals of the session"))
        .build();
    Map<String, Object> entry = Schema.object()
        .req("type", Schema.oneOf(null, List.of("message", "thinking", "tool_call", "summary")))
        .build("One entry of the session detail, as GET /api/history/sessions/{id} gives it");
    Map<String, Object> out = Schema.object()
        .req("session", header)
        .req("total_entries", Schema.integer(null))
        .req("offset", Schema.integer(null))
        .req("entries", Schema.array(null, entry))
        .build();
    return ToolDef.read("history_session", "Read a session",
        "A page of one session's detail: its messages, thinking, tool calls with their results, and"
            + " summaries, oldest first. Page on with offset.",
        in, out, args -> {
          String id = args.string("id").trim();
          int offset = args.intOr("offset", 0, Integer.MAX_VALUE, 0);
          int limit = args.intOr("limit", 1, MAX_PAGE, 50);
          byte[] json = history.read(h -> DetailJson.writeUtf8(h.detail(id)));
          JsonNode detail;
          try {
            detail = Jsons.MAPPER.readTree(json);
          } catch (IOException e) {
            throw new PortException(PortException.Reason.UNAVAILABLE, "the session detail could not be read back", e);
          }
          JsonNode entries = detail.get("entries");
          ObjectNode result = Jsons.object();
          result.set("session", detail.get("session"));
          result.put("total_entries", entries.size()).put("offset", offset);
          ArrayNode page = result.putArray("entries");
          for (int i = offset; i < entries.size() && i < (long) offset + limit; i++) {
            page.add(entries.get(i));
          }
          return ToolDef.Outcome.of(result);
        });
  }

  // ---- history_usage ----

  private ToolDef usage() {
    Map<String, Object> in = Schema.object()
        .opt("by", Schema.oneOf("How to group (default day); week: ISO weeks (2026-W48); block: 5-hour usage windows"
            + " with the active one's burn rate and projection", GROUPINGS))
        .opt("days", Schema.integer("Only the last N days (in timezone), today included", 1, 3650))
        .opt("since", Schema.string("Only responses on or after this day: YYYYMMDD or YYYY-MM-DD, in timezone"))
        .opt("until", Schema.string("Only responses on or before this day (inclusive)"))
        .opt("timezone", Schema.string("Time zone of days, weeks, months and dates, e.g. Europe/Berlin (default the"
            + " server machine's)"))
        .opt("project", Schema.string("Only sessions of this project (its folder name)"))
        .opt("provider", Schema.oneOf("Only sessions of this agent", PROVIDERS))
        .opt("session", Schema.string("Only this session (an unambiguous id prefix is enough)"))
        .opt("model", Schema.string("Only responses of this model, as transcripts name it"))
        .opt("breakdown", Schema.bool("Per-model rows inside each row (default false)"))
        .opt("order", Schema.oneOf("Row order (default asc)", List.of("asc", "desc")))
        .opt("mode", Schema.oneOf("Which cost cost_usd is (default auto): auto, the cost the agent recorded where it"
            + " recorded one (Claude Code, OpenCode), else calculated; calculate, from tokens and prices; display, only"
            + " the recorded cost (0 where none)", List.of("auto", "calculate", "display")))
        .build();
    Map<String, Object> part = Schema.object()
        .req("key", Schema.string("The model"))
        .req("responses", Schema.integer(null))
        .req("input_tokens", Schema.integer(null))
        .req("output_tokens", Schema.integer(null))
        .req("cache_read_tokens", Schema.integer(null))
        .req("cache_creation_tokens", Schema.integer(null))
        .opt("cost_usd", Schema.number("Absent when no response of the group could be priced"))
        .req("calculated_cost_usd", Schema.number("Calculated from tokens and prices (of the priced responses)"))
        .opt("recorded_cost_usd", Schema.number("The agents' own figure for the responses that have one; absent"
            + " when none has"))
        .opt("cost_difference_usd", Schema.number("Recorded minus calculated cost of those responses; absent when"
            + " none has a recorded cost"))
        .req("unpriced_responses", Schema.integer("Responses whose model has no price"))
        .build();
    Map<String, Object> row = Schema.object()
        .req("key", Schema.string("The day, week, month, model, session id, provider, project or block start"))
        .req("responses", Schema.integer("Model responses, each counted once"))
        .req("input_tokens", Schema.integer(null))
        .req("output_tokens", Schema.integer(null))
        .req("cache_read_tokens", Schema.integer(null))
        .req("cache_creation_tokens", Schema.integer(null))
        .opt("cost_usd", Schema.number("Absent when no response of the group could be priced"))
        .req("calculated_cost_usd", Schema.number("Calculated from tokens and prices (of the priced responses)"))
        .opt("recorded_cost_usd", Schema.number("The agents' own figure for the responses that have one; absent"
            + " when none has"))
        .opt("cost_difference_usd", Schema.number("Recorded minus calculated cost of those responses; absent when"
            + " none has a recorded cost"))
        .req("unpriced_responses", Schema.integer("Responses whose model has no price"))
        .opt("models", Schema.array("With breakdown: the row's models, summing to the row", part))
        .build();
    Map<String, Object> block = Schema.object()
        .req("start", Schema.string("ISO instant: the hour (UTC) of the block's first response"))
        .req("end", Schema.string("start + 5 h"))
        .req("responses", Schema.integer(null))
        .req("tokens", Schema.integer("Input, output, cache read and cache creation tokens"))
        .opt("cost_usd", Schema.number(null))
        .req("models", Schema.array(null, Schema.string(null)))
        .req("active", Schema.bool("Whether now is inside the block"))
        .opt("remaining_minutes", Schema.integer("Active block only"))
        .opt("tokens_per_minute", Schema.number("Active block only: since its first response"))
        .opt("usd_per_hour", Schema.number("Active block only"))
        .opt("projected_tokens", Schema.integer("Active block only: at its end if the rate holds"))
        .opt("projected_cost_usd", Schema.number("Active block only"))
        .build();
    Map<String, Object> out = Schema.object()
        .req("by", Schema.string(null))
        .req("timezone", Schema.string(null))
        .req("mode", Schema.oneOf("Which cost cost_usd is", List.of("auto", "calculate", "display")))
        .req("rows", Schema.array(null, row))
        .req("total", row)
        .opt("blocks", Schema.array("With by=block", block))
        .req("prices", Schema.string("Which price table priced the rows"))
        .req("warnings", Schema.array(null, Schema.string(null)))
        .build();
    return ToolDef.read("history_usage", "Tokens and cost",
        "Token totals and cost in US dollars of the imported history, by day, week, month, model, session,"
            + " provider, project or 5-hour block; the filters keep responses, so the total is the sum of the rows.",
        in, out, args -> {
          String byName = args.choice("by", GROUPINGS, "day");
          UsageGrouping by = UsageGrouping.valueOf(byName.toUpperCase(Locale.ROOT));
          UsageQuery q;
          try {
            String zoneName = args.optString("timezone");
            java.time.ZoneId zone = zoneName == null ? java.time.ZoneId.systemDefault() : UsageQuery.parseZone(zoneName);
            Integer days = args.optInt("days", 1, 3650);
            String sinceText = args.optString("since");
            if (days != null && sinceText != null) {
              throw args.bad("give days or since, not both");
            }
            LocalDate since = days != null ? LocalDate.now(zone).minusDays(days - 1L)
                : sinceText == null ? null : UsageQuery.parseDate(sinceText);
            String untilText = args.optString("until");
            String provider = args.optString("provider");
            q = UsageQuery.of(by).zone(zone).between(since, untilText == null ? null : UsageQuery.parseDate(untilText))
                .project(args.optString("project")).provider(provider == null ? null : Provider.parse(provider))
                .session(args.optString("session")).model(args.optString("model")).breakdown(args.flag("breakdown"))
                .descending("desc".equals(args.choice("order", List.of("asc", "desc"), "asc")))
                .mode(dev.agentdesk.transcripts.CostMode.parse(args.choice("mode", List.of("auto", "calculate",
                    "display"), "auto")));
          } catch (IllegalArgumentException e) {
            throw args.bad(e.getMessage());
          }
          PriceFiles.Loaded prices = history.prices();
          UsageReport report = history.read(h -> h.usageReport(q, prices.table()));
          ObjectNode result = Jsons.object().put("by", byName).put("timezone", q.zone().getId())
              .put("mode", q.mode().id());
          ArrayNode rows = result.putArray("rows");
          for (UsageRow u : report.rows()) {
            ObjectNode r = row(u);
            List<UsageRow> parts = report.breakdown().get(u.key());
            if (parts != null) {
              ArrayNode models = r.putArray("models");
              parts.forEach(p -> models.add(row(p)));
            }
            rows.add(r);
          }
          result.set("total", row(report.total()));
          if (by == UsageGrouping.BLOCK) {
            java.time.Instant now = java.time.Instant.now();
            ArrayNode blocks = result.putArray("blocks");
            for (UsageBlock b : report.blocks()) {
              ObjectNode j = blocks.addObject().put("start", b.start().toString()).put("end", b.end().toString())
                  .put("responses", b.responses()).put("tokens", b.tokens());
              if (b.unpricedResponses() < b.responses()) {
                j.put("cost_usd", Math.round(b.costUsd() * 1e6) / 1e6);
              }
              ArrayNode models = j.putArray("models");
              b.models().forEach(models::add);
              j.put("active", b.activeAt(now));
              UsageBlock.Burn burn = b.burn(now);
              if (burn != null) {
                j.put("remaining_minutes", burn.remaining().toMinutes())
                    .put("tokens_per_minute", Math.round(burn.tokensPerMinute() * 100) / 100.0)
                    .put("usd_per_hour", Math.round(burn.usdPerHour() * 1e6) / 1e6)
                    .put("projected_tokens", burn.projectedTokens())
                    .put("projected_cost_usd", Math.round(burn.projectedUsd() * 1e6) / 1e6);
              }
            }
          }
          result.put("prices", report.pricesSource() + " " + report.pricesVersion());
          ArrayNode warnings = result.putArray("warnings");
          prices.warnings().forEach(warnings::add);
          report.warnings().forEach(warnings::add);
          return ToolDef.Outcome.of(result);
        });
  }

  private static ObjectNode row(UsageRow u) {
    ObjectNode o = Jsons.object().put("key", u.key()).put("responses", u.responses())
        .put("input_tokens", u.usage().input()).put("output_tokens", u.usage().output())
        .put("cache_read_tokens", u.usage().cacheRead()).put("cache_creation_tokens", u.usage().cacheCreation());
    if (u.responses() == 0 || u.hasCost()) {
      o.put("cost_usd", Math.round(u.costUsd() * 1e6) / 1e6);
    }
    o.put("calculated_cost_usd", Math.round(u.calculatedUsd() * 1e6) / 1e6);
    if (u.recordedUsd() != null) {
      o.put("recorded_cost_usd", Math.round(u.recordedUsd() * 1e6) / 1e6)
          .put("cost_difference_usd", Math.round(u.differenceUsd() * 1e6) / 1e6);
    }
    return o.put("unpriced_responses", u.unpricedResponses());
  }

  // ---- history_limits ----

  private ToolDef limits() {
    Map<String, Object> in = Schema.object()
        .opt("provider", Schema.oneOf("Only this agent's windows", PROVIDERS))
        .build();
    Map<String, Object> window = Schema.object()
        .req("provider", Schema.string(Provider.idsOr()))
        .req("window", Schema.string("The window's name as its source gives it: primary (Codex's 5-hour window),"
            + " secondary (its weekly one), session or weekly (Claude's, from its screen), rate limit"))
        .opt("used_percent", Schema.number("How full, 0 to 100; absent when not reported"))
        .opt("window_minutes", Schema.integer("The window's length; absent when not reported"))
        .opt("resets_at", Schema.string("ISO instant of the reset; absent when not reported"))
        .req("has_reset", Schema.bool("The window reset since the report, so its figure no longer holds"))
        .opt("minutes_to_reset", Schema.integer("Absent when unknown or past"))
        .req("observed_at", Schema.string("When it was reported"))
        .req("origin", Schema.oneOf("Where it was reported", List.of("transcript", "terminal")))
        .opt("session_id", Schema.string("The transcript that reported it"))
        .build();
    Map<String, Object> out = Schema.object()
        .req("limits", Schema.array("By provider and window", window))
        .req("now", Schema.string(null))
        .build();
    return ToolDef.read("history_limits", "Usage limits",
        "Each provider's latest known usage windows (how full, window length, when they reset), as the agents'"
            + " own files (Codex's rate limits) and supervised terminals (usage-limit and rate-limit messages)"
            + " reported them.",
        in, out, args -> {
          Provider provider = provider(args);
          java.time.Instant now = java.time.Instant.now();
          ObjectNode result = Jsons.object();
          ArrayNode a = result.putArray("limits");
          for (dev.agentdesk.transcripts.UsageLimit l : history.read(dev.agentdesk.transcripts.TranscriptHistory::limits)) {
            if (provider != null && !provider.id().equals(l.provider())) {
              continue;
            }
            ObjectNode j = a.addObject().put("provider", l.provider()).put("window", l.window());
            if (l.usedPercent() != null) {
              j.put("used_percent", l.usedPercent());
            }
            if (l.windowMinutes() != null) {
              j.put("window_minutes", l.windowMinutes());
            }
            if (l.resetsAt() != null) {
              j.put("resets_at", l.resetsAt().toString());
            }
            j.put("has_reset", l.resetBefore(now));
            if (l.untilReset(now) != null) {
              j.put("minutes_to_reset", l.untilReset(now).toMinutes());
            }
            j.put("observed_at", l.observedAt().toString()).put("origin",
                l.origin().name().toLowerCase(Locale.ROOT));
            if (l.sessionId() != null) {
              j.put("session_id", l.sessionId());
            }
          }
          result.put("now", now.toString());
          return ToolDef.Outcome.of(result);
        });
  }

  // ---- history_sessions ----

  private ToolDef sessions() {
    Map<String, Object> in = Schema.object()
        .opt("provider", Schema.oneOf("Only sessions of this agent", PROVIDERS))
        .opt("project", Schema.string("Only sessions of this project (its folder name)"))
        .opt("since", Schema.string("Only sessions active at or after this ISO instant, e.g. 2026-11-01T00:00:00Z"))
        .opt("include_subagents", Schema.bool("List subagent transcripts too (default false)"))
        .opt("limit", Schema.integer("How many at most (default 50)", 1, MAX_PAGE))
        .opt("offset", Schema.integer("Skip this many (default 0)", 0, Integer.MAX_VALUE))
        .build();
    Map<String, Object> session = Schema.object()
        .req("id", Schema.string(null))
        .req("source", Schema.string(Provider.idsOr()))
        .opt("title", Schema.string(null))
        .opt("project", Schema.string(null))
        .opt("cwd", Schema.string(null))
        .opt("git_branch", Schema.string(null))
        .opt("started_at", Schema.string(null))
        .opt("ended_at", Schema.string(null))
        .req("message_count", Schema.integer(null))
        .opt("parent_session_id", Schema.string(null))
        .opt("recorded_cost_usd", Schema.number("The agent's own figure of the session's cost in US dollars (beside"
            + " the cost history_usage calculates); absent when the agent records none"))
        .build();
    Map<String, Object> out = Schema.object()
        .req("total", Schema.integer("Sessions matching the filters in all pages"))
        .req("offset", Schema.integer(null))
        .req("sessions", Schema.array("Newest activity first", session))
        .build();
    return ToolDef.read("history_sessions", "List sessions",
        "The imported sessions, newest activity first, filtered by provider, project and time.",
        in, out, args -> {
          Provider provider = provider(args);
          String project = blankToNull(args.optString("project"));
          String since = blankToNull(args.optString("since"));
          if (since != null) {
            try {
              java.time.Instant.parse(since);
            } catch (java.time.format.DateTimeParseException e) {
              throw args.bad("since must be an ISO instant such as 2026-11-01T00:00:00Z, got '" + since + "'");
            }
          }
          boolean subagents = args.flag("include_subagents");
          int limit = args.intOr("limit", 1, MAX_PAGE, 50);
          int offset = args.intOr("offset", 0, Integer.MAX_VALUE, 0);
          Page<SessionSummary> page = history.read(h -> h.sessions(
              new SessionQuery(provider, project, since, subagents, limit, offset)));
          ObjectNode result = Jsons.object().put("total", page.total()).put("offset", page.offset());
          ArrayNode arr = result.putArray("sessions");
          for (SessionSummary s : page.items()) {
            ObjectNode o = arr.addObject().put("id", s.id()).put("source", s.source()).put("title", s.title())
                .put("project", s.project()).put("cwd", s.cwd()).put("git_branch", s.gitBranch())
                .put("started_at", s.startedAt()).put("ended_at", s.endedAt()).put("message_count", s.messageCount())
                .put("parent_session_id", s.parentSessionId());
            if (s.recordedCostUsd() != null) {
              o.put("recorded_cost_usd", s.recordedCostUsd());
            }
          }
          return ToolDef.Outcome.of(result);
        });
  }

  /** The session as Markdown, for the agentdesk://history/sessions/{id} resource. */
  String markdown(String id) {
    return history.read(h -> dev.agentdesk.transcripts.assemble.DetailMarkdown.write(h.detail(id)));
  }

  private static Provider provider(Args args) {
    String name = args.choice("provider", PROVIDERS, null);
    return name == null ? null : Provider.parse(name);
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }
}
