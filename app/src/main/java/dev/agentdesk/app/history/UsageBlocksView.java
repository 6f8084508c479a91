package dev.agentdesk.app.history;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.transcripts.UsageBlock;
import dev.agentdesk.transcripts.UsageReport;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Five-hour blocks as text and JSON: each block, the active one's burn rate and projection, and
 * warnings against a token limit. Shared by {@code history usage --by block} and the API.
 */
public final class UsageBlocksView {
  private static final DateTimeFormatter DAY_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm", Locale.ROOT);
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm", Locale.ROOT);

  private UsageBlocksView() {}

  /**
   * The token limit to warn against: a number, or {@code max} for the largest block before the
   * active one (null when there is none).
   */
  public static Long limit(String tokenLimit, UsageReport report, Instant now) {
    if (tokenLimit == null) {
      return null;
    }
    if (tokenLimit.equalsIgnoreCase("max")) {
      return report.blocks().stream().filter(b -> !b.activeAt(now)).mapToLong(UsageBlock::tokens).boxed()
          .max(Long::compare).orElse(null);
    }
    try {
      long n = Long.parseLong(tokenLimit.replace("_", "").replace(",", ""));
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // the message below
    }
    throw new IllegalArgumentException("the token limit is a positive number of tokens or 'max' (the largest past"
        + " block), not '" + tokenLimit + "'");
  }

  /** The blocks as a table, then the active block's state and the limit's warnings. */
  static void print(PrintWriter out, UsageReport report, ZoneId zone, Instant now, Long limit) {
    out.printf("%-24s %9s %14s %12s  %s%n", "block (" + zone.getId() + ")", "responses", "tokens", "cost_usd",
        "models");
    for (UsageBlock b : report.blocks()) {
      String span = DAY_TIME.format(b.start().atZone(zone)) + "-" + TIME.format(b.end().atZone(zone));
      String flags = (b.activeAt(now) ? "  (active)" : "") + (limit != null && b.tokens() > limit ? "  over limit" : "");
      out.printf("%-24s %9d %,14d %12s  %s%s%n", span, b.responses(), b.tokens(), usd(b), String.join(", ", b.models()),
          flags);
    }
    out.printf("%-24s %9d %,14d %12s%n", "total", report.total().responses(), tokens(report), Costs.cell(report.total()));
    report.activeBlock(now).ifPresentOrElse(b -> {
      UsageBlock.Burn burn = b.burn(now);
      out.printf(Locale.ROOT, "active block: %s elapsed, %s left (ends %s); burn %,.0f tokens/min, %s/h;"
          + " projected at its end %,d tokens, %s%n", hm(burn.elapsed()), hm(burn.remaining()),
          TIME.format(b.end().atZone(zone)), burn.tokensPerMinute(), Costs.usd(burn.usdPerHour()),
          burn.projectedTokens(), Costs.usd(burn.projectedUsd()));
      if (limit != null) {
        out.printf(Locale.ROOT, "token limit %,d: %.0f%% used%s%n", limit, 100.0 * b.tokens() / limit,
            burn.projectedTokens() > limit ? "; projected to exceed it" : "");
      }
    }, () -> out.println("no active block"));
  }

  /** The blocks as JSON: start, end, tokens, cost, models; the active one with its burn and projection. */
  public static void put(ObjectNode o, UsageReport report, Instant now, Long limit) {
    ArrayNode a = o.putArray("blocks");
    for (UsageBlock b : report.blocks()) {
      ObjectNode j = a.addObject();
      j.put("start", b.start().toString()).put("end", b.end().toString()).put("first_at", b.firstAt().toString())
          .put("last_at", b.lastAt().toString()).put("responses", b.responses()).put("tokens", b.tokens())
          .put("input_tokens", b.usage().input()).put("output_tokens", b.usage().output())
          .put("cache_read_tokens", b.usage().cacheRead()).put("cache_creation_tokens", b.usage().cacheCreation());
      if (b.responses() > 0 && b.unpricedResponses() == b.responses()) {
        j.putNull("cost_usd");
      } else {
        j.put("cost_usd", round(b.costUsd()));
      }
      j.put("unpriced_responses", b.unpricedResponses());
      ArrayNode models = j.putArray("models");
      b.models().forEach(models::add);
      j.put("active", b.activeAt(now));
      UsageBlock.Burn burn = b.burn(now);
      if (burn != null) {
        j.put("elapsed_minutes", burn.elapsed().toMinutes()).put("remaining_minutes", burn.remaining().toMinutes())
            .put("tokens_per_minute", Math.round(burn.tokensPerMinute() * 100) / 100.0)
            .put("usd_per_hour", round(burn.usdPerHour())).put("projected_tokens", burn.projectedTokens())
            .put("projected_cost_usd", round(burn.projectedUsd()));
      }
      if (limit != null) {
        j.put("over_limit", b.tokens() > limit || burn != null && burn.projectedTokens() > limit);
      }
    }
    if (limit == null) {
      o.putNull("token_limit");
    } else {
      o.put("token_limit", limit);
    }
    o.put("now", now.toString());
  }

  private static long tokens(UsageReport r) {
    return r.blocks().stream().mapToLong(UsageBlock::tokens).sum();
  }

  private static String usd(UsageBlock b) {
    return b.responses() > 0 && b.unpricedResponses() == b.responses() ? "unpriced"
        : Costs.usd(b.costUsd()) + (b.unpricedResponses() > 0 ? "+" : "");
  }

  private static double round(double usd) {
    return Math.round(usd * 1e6) / 1e6;
  }

  /** {@code 1h05m}. */
  static String hm(Duration d) {
    return String.format(Locale.ROOT, "%dh%02dm", d.toHours(), d.toMinutesPart());
  }
}
