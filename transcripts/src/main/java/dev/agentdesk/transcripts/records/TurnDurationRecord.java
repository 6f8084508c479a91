package dev.agentdesk.transcripts.records;

import java.util.Objects;

/** How long a turn took, as the provider measured it. */
public record TurnDurationRecord(String sessionId, String uuid, long ordinal, String timestamp, long durationMs)
    implements TranscriptRecord {
  public TurnDurationRecord {
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(uuid, "uuid");
  }
}
