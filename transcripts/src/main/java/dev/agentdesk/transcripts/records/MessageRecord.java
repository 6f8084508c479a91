package dev.agentdesk.transcripts.records;

import java.util.Objects;

/**
 * One message (or one text/thinking block of a provider line).
 *
 * @param role {@code user}, {@code assistant} or {@code system}
 * @param contentType {@link ContentTypes} value saying what the text is
 * @param responseId the model response this message belongs to; all messages that share it share
 *     one {@code usage}, which is counted once (the copy with the largest output count)
 * @param usage tokens reported for the response, or null
 */
public record MessageRecord(
    String sessionId,
    String uuid,
    String parentUuid,
    long ordinal,
    String timestamp,
    String role,
    String text,
    String contentType,
    boolean isMeta,
    Visibility visibility,
    String model,
    boolean isSidechain,
    String agentId,
    String responseId,
    TokenUsage usage) implements TranscriptRecord {

  public MessageRecord {
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(uuid, "uuid");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(contentType, "contentType");
    Objects.requireNonNull(visibility, "visibility");
  }
}
