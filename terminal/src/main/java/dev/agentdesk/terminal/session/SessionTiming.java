package dev.agentdesk.terminal.session;

import dev.agentdesk.terminal.parser.Agent;

/**
 * The time windows of session supervision, all in milliseconds. {@link #defaults()} are the
 * spec's values; tests and users may tune them.
 *
 * @param shellIdleMs quiet time after which a plain shell is idle (spec: 500 ms)
 * @param agentIdleMs quiet time after which a known agent is idle (spec: 2.5 s)
 * @param silenceMs how long a {@code ?} candidate must stay quiet before it becomes a question (10 s)
 * @param spinnerWindowMs a status line seen within this window suppresses silence questions (10 s)
 * @param echoWindowMs output after user input that is treated as its echo (500 ms)
 * @param resizeGraceMs output after a resize that is treated as a redraw (1 s)
 * @param conflictCooldownMs minimum gap between two session-id resets (3 s)
 * @param staleChunks more non-{@code ?} chunks than this after a candidate make it stale (10)
 */
public record SessionTiming(long shellIdleMs, long agentIdleMs, long silenceMs, long spinnerWindowMs,
    long echoWindowMs, long resizeGraceMs, long conflictCooldownMs, int staleChunks) {

  public SessionTiming {
    if (shellIdleMs <= 0 || agentIdleMs <= 0 || silenceMs <= 0 || spinnerWindowMs < 0 || echoWindowMs < 0
        || resizeGraceMs < 0 || conflictCooldownMs < 0 || staleChunks < 0) {
      throw new SessionException(SessionException.Reason.INVALID_SPEC,
          "session timing needs positive idle and silence windows and no negative window: " + this);
    }
  }

  public static SessionTiming defaults() {
    return new SessionTiming(500, 2_500, 10_000, 10_000, 500, 1_000, 3_000, 10);
  }

  /** The idle threshold for this agent: the shell value for {@link Agent#NONE}. */
  public long idleMsFor(Agent agent) {
    return agent != Agent.NONE ? agentIdleMs : shellIdleMs;
  }

  public SessionTiming withIdle(long shellMs, long agentMs) {
    return new SessionTiming(shellMs, agentMs, silenceMs, spinnerWindowMs, echoWindowMs, resizeGraceMs,
        conflictCooldownMs, staleChunks);
  }
}
