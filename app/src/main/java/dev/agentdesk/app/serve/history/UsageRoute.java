package dev.agentdesk.app.serve.history;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.app.history.UsageBlocksView;
import dev.agentdesk.app.serve.ServeException;
import dev.agentdesk.transcripts.CostMode;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.TranscriptHistory;
import dev.agentdesk.transcripts.UsageGrouping;
import dev.agentdesk.transcripts.UsageQuery;
import dev.agentdesk.transcripts.UsageReport;
import dev.agentdesk.transcripts.UsageRow;
import dev.agentdesk.transcripts.cost.PriceFiles;
import io.javalin.http.Context;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * {@code GET /api/history/usage}: the query parameters of {@code history usage} under the same
 * names (by, since, until, timezone, project, provider, session, model, breakdown, order, mode,
 * token_limit; and days, the last N days of by=day), answered by the same query.
 */
final class UsageRoute {
  private UsageRoute() {}

  static UsageQuery query(Context ctx) {
    String byName = param(ctx, "by", "day").toLowerCase(Locale.ROOT);
    UsageGrouping by;
    try {
      by = UsageGrouping.valueOf(byName.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw ServeException.badRequest("by must be day, week, month, model, session, provider, project, block or"
          + " response, got '" + byName + "'");
    }
    try {
      ZoneId zone = ctx.queryParam("timezone") == null || ctx.queryParam("timezone").isBlank() ? ZoneId.systemDefault()
          : UsageQuery.parseZone(ctx.queryParam("timezone"));
      String session = blank(ctx.queryParam("session"));
      if (by == UsageGrouping.RESPONSE && session == null) {
        throw ServeException.badRequest("by=response lists one session's responses: give session=ID");
      }
      LocalDate since = date(ctx, "since");
      String days = blank(ctx.queryParam("days"));
      if (days != null) {
        int n;
        try {
          n = Integer.parseInt(days);
        } catch (NumberFormatException e) {
          n = -1;
        }
        if (n < 1 || n > 3650) {
          throw ServeException.badRequest("days must be a whole number from 1 to 3650, got '" + days + "'");
        }
        if (since != null) {
          throw ServeException.badRequest("give days or since, not both");
        }
        since = LocalDate.now(zone).minusDays(n - 1L);
      }
      String order = param(ctx, "order", "asc");
      if (!order.equals("asc") && !order.equals("desc")) {
        throw ServeException.badRequest("order must be asc or desc, got '" + order + "'");
      }
      String provider = blank(ctx.queryParam("provider"));
      return UsageQuery.of(by).zone(zone).between(since, date(ctx, "until")).project(blank(ctx.queryParam("project")))
          .provider(provider == null ? null : Provider.parse(provider)).session(session)
          .model(blank(ctx.queryParam("model"))).breakdown("true".equals(ctx.queryParam("breakdown")))
          .descending(order.equals("desc")).mode(CostMode.parse(param(ctx, "mode", "auto")));
    } catch (IllegalArgumentException e) {
      throw ServeException.badRequest(e.getMessage());
    }
  }

  static ObjectNode answer(Context ctx, Function<Function<TranscriptHistory, UsageReport>, UsageReport> read,
      PriceFiles.Loaded prices) {
    UsageQuery q = query(ctx);
    UsageReport report = read.apply(h -> h.usageReport(q, prices.table()));
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    o.put("by", q.by().name().toLowerCase(Locale.ROOT)).put("timezone", q.zone().getId());
    ArrayNode rows = o.putArray("rows");
    for (UsageRow r : report.rows()) {
      ObjectNode row = rows.addObject();
      row(row, r);
      List<UsageRow> parts = report.breakdown().get(r.key());
      if (parts != null) {
        ArrayNode models = row.putArray("models");
        parts.forEach(p -> row(models.addObject(), p));
      }
    }
    row(o.putObject("total"), report.total());
    if (q.by() == UsageGrouping.BLOCK) {
      Instant now = Instant.now();
      try {
        UsageBlocksView.put(o, report, now, UsageBlocksView.limit(blank(ctx.queryParam("token_limit")), report, now));
      } catch (IllegalArgumentException e) {
        throw ServeException.badRequest(e.getMessage());
      }
    }
    o.putObject("prices").put("source", report.pricesSource()).put("version", report.pricesVersion())
        .put("published", report.pricesPublished());
    o.put("rejected_responses", report.rejectedResponses());
    o.put("mode", report.mode().id());
    ArrayNode warnings = o.putArray("warnings");
    prices.warnings().forEach(warnings::add);
    report.warnings().forEach(warnings::add);
    return o;
  }

  private static void row(ObjectNode o, UsageRow u) {
    o.put("key", u.key()).put("responses", u.responses()).put("input_tokens", u.usage().input())
        .put("output_tokens", u.usage().output()).put("cache_read_tokens", u.usage().cacheRead())
        .put("cache_creation_tokens", u.usage().cacheCreation())
        .put("cache_creation_1h_tokens", u.usage().cacheCreation1h());
    // cost_usd by the mode, the calculated and recorded figures and their difference, unpriced counts
    dev.agentdesk.app.history.Costs.put(o, u);
  }

  private static String param(Context ctx, String name, String fallback) {
    String v = blank(ctx.queryParam(name));
    return v == null ? fallback : v;
  }

  private static LocalDate date(Context ctx, String name) {
    String v = blank(ctx.queryParam(name));
    if (v == null) {
      return null;
    }
    try {
      return UsageQuery.parseDate(v);
    } catch (IllegalArgumentException e) {
      throw ServeException.badRequest(name + ": " + e.getMessage());
    }
  }

  private static String blank(String s) {
    return s == null || s.isBlank() ? null : s;
  }
}
