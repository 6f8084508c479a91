package dev.agentdesk.transcripts;

/**
 * A full-text match.
 *
 * @param kind {@code message}, {@code tool_input} or {@code tool_output}
 * @param ref the message uuid or tool call id inside the session
 * @param snippet matching text with the matched words in [brackets]
 * @param rank relevance, lower is better
 */
public record SearchHit(String sessionId, String sessionTitle, String kind, String ref, String snippet, double rank) {}
