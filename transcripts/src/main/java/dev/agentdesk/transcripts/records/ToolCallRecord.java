package dev.agentdesk.transcripts.records;

import java.util.Objects;

/**
 * A tool invocation.
 *
 * @param presentation {@link Presentations} class the adapter assigned; tool names are display data
 * @param inputJson the input as compact JSON text (or null)
 * @param filePath the file the call is about, when the adapter knows one
 */
public record ToolCallRecord(
    String sessionId,
    String id,
    String messageUuid,
    long ordinal,
    String timestamp,
    String name,
    String presentation,
    String inputJson,
    String filePath) implements TranscriptRecord {

  public ToolCallRecord {
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(presentation, "presentation");
  }
}
