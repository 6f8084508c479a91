package dev.agentdesk.transcripts.records;

import java.util.Objects;

/** One agent of a workflow run. */
public record WorkflowAgentRecord(
    String sessionId,
    String runId,
    String agentId,
    String type,
    String description,
    String status,
    Long durationMs,
    Long totalTokens) implements TranscriptRecord {
  public WorkflowAgentRecord {
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(agentId, "agentId");
  }
}
