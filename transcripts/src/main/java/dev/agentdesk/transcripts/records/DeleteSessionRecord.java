package dev.agentdesk.transcripts.records;

import java.util.Objects;

/**
 * Everything recorded so far for the session is void: its source file was rewritten or truncated
 * and the records that follow restate it from the start.
 */
public record DeleteSessionRecord(String sessionId, String reason) implements TranscriptRecord {
  public DeleteSessionRecord {
    Objects.requireNonNull(sessionId, "sessionId");
  }
}
