package dev.agentdesk.transcripts.records;

import java.util.Objects;

/**
 * A subagent a tool call spawned. {@code agentSessionId} names the subagent's own transcript
 * session when there is one.
 */
public record SubagentRecord(
    String sessionId,
    String agentId,
    String parentToolCallId,
    String type,
    String description,
    Long durationMs,
    Long totalTokens,
    String agentSessionId) implements TranscriptRecord {
  public SubagentRecord {
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(agentId, "agentId");
  }
}
