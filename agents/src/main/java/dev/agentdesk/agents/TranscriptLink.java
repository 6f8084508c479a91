package dev.agentdesk.agents;

import java.nio.file.Path;

/**
 * The transcript an agent session writes.
 *
 * @param provider {@code claude} or {@code codex} (readable by the transcripts module), or the
 *     agent name for agents whose files are linked but not parsed ({@code gemini}, {@code aider}, …)
 * @param sessionId the provider's session id (Claude: the UUID agentdesk chose; Codex: the
 *     {@code session_meta} id; others: the file name without extension)
 * @param path the file
 */
public record TranscriptLink(String provider, String sessionId, Path path) {}
