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
 * @param part which of several sessions in {@code file} this unit is (an SQLite database holds many),
 *     or null when the file is the one session's
 */
public record SourceUnit(Provider provider, Path file, String sessionId, String parentSessionId, String agentId,
    String part) {
  public SourceUnit {
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(sessionId, "sessionId");
  }

  /** A unit that is its file's one session. */
  public SourceUnit(Provider provider, Path file, String sessionId, String parentSessionId, String agentId) {
    this(provider, file, sessionId, parentSessionId, agentId, null);
  }

  /** Where the unit's cursor and problems are kept: the file's absolute path, with {@code #part} when there is one. */
  public String key() {
    String path = file.toAbsolutePath().normalize().toString();
    return part == null ? path : path + "#" + part;
  }
}
