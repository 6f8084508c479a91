package dev.agentdesk.transcripts;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A provider's usage window as last reported: by the agent's own files (Codex's {@code rate_limits})
 * or by a supervised terminal's screen (a usage-limit or rate-limit message).
 *
 * @param provider the provider's id ({@link Provider#id()})
 * @param window the window's name as its source gives it ({@code primary}, {@code weekly}, {@code rate limit}, …)
 * @param usedPercent how full, 0 to 100, or null when not reported
 * @param windowMinutes the window's length, or null when not reported
 * @param resetsAt when it resets, or null when not reported
 * @param observedAt when the figure was reported
 * @param sessionId the session (transcript) that reported it, or null for a terminal
 */
public record UsageLimit(String provider, String window, Double usedPercent, Long windowMinutes, Instant resetsAt,
    Instant observedAt, String sessionId, Origin origin) {

  /** Where a figure came from. */
  public enum Origin { TRANSCRIPT, TERMINAL }

  public UsageLimit {
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(window, "window");
    Objects.requireNonNull(observedAt, "observedAt");
    Objects.requireNonNull(origin, "origin");
  }

  /** True when the window has reset since it was reported (its figure no longer holds). */
  public boolean resetBefore(Instant now) {
    return resetsAt != null && !resetsAt.isAfter(now);
  }

  /** Time until the reset, or null when unknown or past. */
  public Duration untilReset(Instant now) {
    return resetsAt == null || !resetsAt.isAfter(now) ? null : Duration.between(now, resetsAt);
  }
}
