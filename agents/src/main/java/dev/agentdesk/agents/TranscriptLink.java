package dev.agentdesk.agents;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The transcript an agent session writes.
 *
 * @param provider the transcripts module's provider id ({@code claude}, {@code codex}, {@code gemini},
 *     {@code opencode}, {@code copilot}), or the agent name for files linked but not parsed ({@code aider})
 * @param sessionId the provider's session id (Claude: the UUID agentdesk chose; Codex: the
 *     rollout's own id; others: the id their adapter reads, or the file name without extension)
 * @param path the file
 * @param earlier the files of the same provider this session wrote before {@code path}, oldest first: an
 *     agent that restarts itself into a new file (Gemini CLI after the trust dialog) leaves the responses
 *     it already had in the old one, so the session's tokens and cost are those of every file here and of
 *     {@code path}; empty for most sessions
 */
public record TranscriptLink(String provider, String sessionId, Path path, List<Part> earlier) {

  /** A file the session went on from. */
  public record Part(String sessionId, Path path) {}

  public TranscriptLink {
    earlier = List.copyOf(earlier);
  }

  /** A link with no earlier files. */
  public TranscriptLink(String provider, String sessionId, Path path) {
    this(provider, sessionId, path, List.of());
  }

  /** {@code next}, the file this session moved on to, with this link's files before it. */
  TranscriptLink movedTo(TranscriptLink next) {
    List<Part> chain = new ArrayList<>(earlier);
    chain.add(new Part(sessionId, path));
    chain.addAll(next.earlier);
    return new TranscriptLink(next.provider, next.sessionId, next.path, chain);
  }

  /** Every file of the session, oldest first: {@link #earlier} then this one. */
  public List<Part> parts() {
    List<Part> all = new ArrayList<>(earlier);
    all.add(new Part(sessionId, path));
    return List.copyOf(all);
  }
}
