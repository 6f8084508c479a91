package dev.agentdesk.app.history;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.transcripts.UsageLimit;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * Each provider's latest known usage windows as text and JSON. Shared by {@code history usage
 * --limits} and the API ({@code GET /api/history/usage?limits=true}, the Usage page).
 */
public final class UsageLimitsView {
  private static final DateTimeFormatter DAY_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm", Locale.ROOT);

  private UsageLimitsView() {}

  /** Only the windows of {@code provider} (its id), or all when it is null. */
  public static List<UsageLimit> of(List<UsageLimit> all, String provider) {
    return provider == null ? all : all.stream().filter(l -> l.provider().equals(provider)).toList();
  }

  /** The windows as a table; times in {@code zone}. */
  static void print(PrintWriter out, List<UsageLimit> limits, ZoneId zone, Instant now) {
    if (limits.isEmpty()) {
      out.println("no usage limits known yet (Codex writes its windows into its rollouts; supervised terminals add"
          + " the limits they show)");
      return;
    }
    out.printf("%-10s %-18s %6s %8s  %-34s %-17s %s%n", "provider", "window", "used", "length",
        "resets (" + zone.getId() + ")", "reported", "from");
    for (UsageLimit l : limits) {
      String resets = l.resetsAt() == null ? "-" : DAY_TIME.format(l.resetsAt().atZone(zone))
          + (l.resetBefore(now) ? " (has reset)" : " (in " + span(l.untilReset(now)) + ")");
      out.printf("%-10s %-18s %6s %8s  %-34s %-17s %s%n", l.provider(), l.window(),
          l.usedPercent() == null ? "-" : String.format(Locale.ROOT, "%.0f%%", l.usedPercent()),
          l.windowMinutes() == null ? "-" : span(Duration.ofMinutes(l.windowMinutes())), resets,
          DAY_TIME.format(l.observedAt().atZone(zone)), l.origin().name().toLowerCase(Locale.ROOT));
    }
  }

  /** The windows as the JSON array {@code limits} of {@code o}. */
  public static void put(ObjectNode o, List<UsageLimit> limits, Instant now) {
    ArrayNode a = o.putArray("limits");
    for (UsageLimit l : limits) {
      ObjectNode j = a.addObject().put("provider", l.provider()).put("window", l.window());
      if (l.usedPercent() == null) {
        j.putNull("used_percent");
      } else {
        j.put("used_percent", l.usedPercent());
      }
      if (l.windowMinutes() == null) {
        j.putNull("window_minutes");
      } else {
        j.put("window_minutes", l.windowMinutes());
      }
      j.put("resets_at", l.resetsAt() == null ? null : l.resetsAt().toString());
      // whether the window reset since the report: its figure no longer holds
      j.put("has_reset", l.resetBefore(now));
      Duration left = l.untilReset(now);
      if (left == null) {
        j.putNull("minutes_to_reset");
      } else {
        j.put("minutes_to_reset", left.toMinutes());
      }
      j.put("observed_at", l.observedAt().toString()).put("origin", l.origin().name().toLowerCase(Locale.ROOT))
          .put("session_id", l.sessionId());
    }
    o.put("now", now.toString());
  }

  /** {@code 5h}, {@code 7d}, {@code 1h05m}, {@code 2d03h}. */
  static String span(Duration d) {
    long days = d.toDays();
    if (days > 0) {
      return d.toHoursPart() == 0 && d.toMinutesPart() == 0 ? days + "d"
          : String.format(Locale.ROOT, "%dd%02dh", days, d.toHoursPart());
    }
    return d.toMinutesPart() == 0 ? d.toHours() + "h" : UsageBlocksView.hm(d);
  }
}
