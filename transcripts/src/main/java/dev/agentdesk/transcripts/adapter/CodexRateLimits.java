package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.transcripts.records.TranscriptRecord;
import dev.agentdesk.transcripts.records.UsageLimitRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code rate_limits} of a Codex {@code token_count} event: the plan's windows (a 5-hour
 * {@code primary} and a weekly {@code secondary} in most rollouts; a weekly {@code primary} alone in
 * 0.146 on a Pro plan) as Codex last heard them
 * from its server. Shapes seen in the corpus:
 *
 * <ul>
 *   <li>{@code primary}/{@code secondary} objects with {@code used_percent}, {@code window_minutes}
 *       and {@code resets_at} (epoch seconds; rollouts of 0.53, 0.89, 0.93, 0.104, 0.129, 0.146),
 *       {@code resets_in_seconds} (relative to the line's time), or {@code reset_at} (the spelling of
 *       one fixture's {@code account/rateLimits/updated} event, which is not read: only token counts are);
 *   <li>flat {@code primary_used_percent}, {@code primary_window_minutes}, … without a reset (like
 *       {@code resets_in_seconds}, only in fixture lines whose version is trimmed);
 *   <li>{@code rate_limits: null}, or a window that is {@code null} (0.77; a plan without that window);
 *   <li>from 0.104 a {@code limit_id} ({@code codex}) beside the windows; another id (a limit of
 *       its own) names its windows {@code <limit_id> primary}.
 * </ul>
 *
 * A window of length 0 with 0 % used is what trimmed fixtures hold; it is kept, as Codex wrote it,
 * but its length is unknown (null).
 */
final class CodexRateLimits {
  private CodexRateLimits() {}

  static List<TranscriptRecord> read(String sessionId, long offset, String ts, JsonNode limits) {
    if (ts == null || limits == null || !limits.isObject()) {
      return List.of();
    }
    String limitId = Json.str(limits, "limit_id");
    String prefix = limitId == null || limitId.equals("codex") ? "" : limitId + " ";
    List<TranscriptRecord> out = new ArrayList<>(2);
    int block = 0;
    for (String which : List.of("primary", "secondary")) {
      JsonNode w = limits.get(which);
      Double used;
      Long minutes;
      String resets = null;
      if (w != null && w.isObject()) {
        used = percent(w.get("used_percent"));
        minutes = Json.lngOrNull(w, "window_minutes");
        Long at = Json.lngOrNull(w, "resets_at") != null ? Json.lngOrNull(w, "resets_at") : Json.lngOrNull(w, "reset_at");
        Long in = Json.lngOrNull(w, "resets_in_seconds");
        if (at != null && at > 0) {
          resets = Json.timestampMillis(at * 1000);
        } else if (in != null && in > 0) {
          resets = Json.timestampMillis(Instant.parse(ts).toEpochMilli() + in * 1000);
        }
      } else if (limits.has(which + "_used_percent")) {
        used = percent(limits.get(which + "_used_percent"));
        minutes = Json.lngOrNull(limits, which + "_window_minutes");
      } else {
        continue;
      }
      if (used == null && minutes == null && resets == null) {
        continue;
      }
      out.add(new UsageLimitRecord(sessionId, TranscriptRecord.ordinal(offset, 100 + block++), ts, prefix + which,
          used, minutes == null || minutes <= 0 ? null : minutes, resets));
    }
    return out;
  }

  private static Double percent(JsonNode v) {
    return v != null && v.isNumber() ? v.asDouble() : null;
  }
}
