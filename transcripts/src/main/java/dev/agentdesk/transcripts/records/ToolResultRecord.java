package dev.agentdesk.transcripts.records;

import java.util.Objects;

/** The result of the tool call {@code toolUseId} in the same session. */
public record ToolResultRecord(
    String sessionId,
    String toolUseId,
    long ordinal,
    String timestamp,
    String content,
    boolean isError) implements TranscriptRecord {

  public ToolResultRecord {
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(toolUseId, "toolUseId");
  }
}
