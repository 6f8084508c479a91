package dev.agentdesk.transcripts.records;

import java.util.Objects;

/**
 * One usage window of the agent's plan as the agent itself reported it at {@code observedAt}: how
 * full it was, how long it is, when it resets. Not part of the conversation (the session detail
 * ignores it); the store keeps, per provider and window, the latest one it was given.
 *
 * @param window the adapter's name for the window, stable across reports (for example {@code primary})
 * @param usedPercent how full the window is, 0 to 100, or null when the report does not say
 * @param windowMinutes the window's length, or null when the report does not say
 * @param resetsAt when the window resets (a normalised ISO-8601 instant), or null when the report does not say
 */
public record UsageLimitRecord(String sessionId, long ordinal, String observedAt, String window, Double usedPercent,
    Long windowMinutes, String resetsAt) implements TranscriptRecord {
  public UsageLimitRecord {
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(observedAt, "observedAt");
    Objects.requireNonNull(window, "window");
  }
}
