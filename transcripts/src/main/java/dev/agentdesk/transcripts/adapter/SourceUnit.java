package dev.agentdesk.transcripts.adapter;

import dev.agentdesk.transcripts.Provider;
import java.nio.file.Path;
import java.util.Objects;

/**
 * One transcript file as an adapter sees it.
 *
 * @param sessionId the session the file's records belong to (derived from the path, so that every
 *     incremental read knows it without re-reading the head of the file)
 * @param parentSessionId for a subagent transcript, the session that spawned it
 * @param agentId for a subagent transcript, the agent id
 */
public record SourceUnit(Provider provider, Path file, String sessionId, String parentSessionId, String agentId) {
  public SourceUnit {
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(sessionId, "sessionId");
  }
}
