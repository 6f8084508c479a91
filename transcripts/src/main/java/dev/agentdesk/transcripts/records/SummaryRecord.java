package dev.agentdesk.transcripts.records;

import java.util.Objects;

/** A summary line ({@code id} is unique in the session; {@code leafUuid} the message it summarises up to). */
public record SummaryRecord(String sessionId, String id, long ordinal, String text, String leafUuid)
    implements TranscriptRecord {
  public SummaryRecord {
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(id, "id");
  }
}
