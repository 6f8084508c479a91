package dev.agentdesk.transcripts.records;

import java.util.Objects;

/**
 * A workflow run a tool call started; its agents are {@link WorkflowAgentRecord}s with the same run
 * id. {@code taskId} is the background task id the launching tool call reported.
 */
public record WorkflowRecord(
    String sessionId,
    String runId,
    String parentToolCallId,
    String taskId,
    String status,
    Long durationMs,
    Long totalTokens) implements TranscriptRecord {
  public WorkflowRecord {
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(runId, "runId");
  }
}
