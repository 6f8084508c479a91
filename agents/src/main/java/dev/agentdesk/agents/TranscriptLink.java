package dev.agentdesk.agents;

import java.nio.file.Path;

/**
 * The transcript an agent session writes.
 *
 * @param provider the transcripts module's provider id ({@code claude}, {@code codex}, {@code gemini},
 *     {@code opencode}, {@code copilot}), or the agent name for files linked but not parsed ({@code aider})
 * @param sessionId the provider's session id (Claude: the UUID agentdesk chose; Codex: the
 *     rollout's own id; others: the id their adapter reads, or the file name without extension)
 * @param path the file
 */
public record TranscriptLink(String provider, String sessionId, Path path) {}
