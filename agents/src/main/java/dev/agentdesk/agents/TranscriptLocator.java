package dev.agentdesk.agents;

import dev.agentdesk.transcripts.LiveTranscripts;
import dev.agentdesk.transcripts.Provider;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Finds the transcript an agent session writes. Where each tool writes, and how to tell its
 * session's file, is the provider adapter's knowledge ({@link LiveTranscripts#locate}); folders
 * come from the environment given ({@code HOME} and each tool's own variable, through the
 * transcripts module's {@code HistoryFolders}), never from the JVM's own, so tests run against
 * temporary homes.
 */
final class TranscriptLocator implements TranscriptWatch.Finder {
  private final Map<String, String> env;

  TranscriptLocator(Map<String, String> env) {
    this.env = Map.copyOf(env);
  }

  /**
   * The transcript, if it exists yet.
   *
   * @param launchId the id agentdesk gave the agent (Claude's session id)
   * @param claimed provider session ids already linked to other agent sessions (never linked twice)
   */
  @Override
  public Optional<TranscriptLink> find(AgentType type, String launchId, Path worktree, Instant spawnedAt,
      Set<String> claimed) {
    return switch (AgentRules.transcriptRule(type)) {
      case PROVIDER -> LiveTranscripts.locate(AgentRules.transcriptProvider(type),
              new LiveTranscripts.Launch(launchId, Worktrees.real(worktree), spawnedAt, claimed), env)
          .map(l -> new TranscriptLink(l.provider().id(), l.sessionId(), l.file()));
      case NONE -> Optional.empty();
    };
  }

  /**
   * A newer transcript the session moved to from {@code current} (an agent that restarts itself into a
   * new file: the provider adapter knows), if any.
   */
  @Override
  public Optional<TranscriptLink> successor(AgentType type, String launchId, Path worktree, Instant spawnedAt,
      Set<String> claimed, TranscriptLink current) {
    if (AgentRules.transcriptRule(type) != AgentRules.TranscriptRule.PROVIDER) {
      return Optional.empty();
    }
    Provider provider = AgentRules.transcriptProvider(type);
    return LiveTranscripts.successor(provider,
            new LiveTranscripts.Launch(launchId, Worktrees.real(worktree), spawnedAt, claimed),
            new LiveTranscripts.Located(provider, current.sessionId(), current.path()), env)
        .map(l -> new TranscriptLink(l.provider().id(), l.sessionId(), l.file()));
  }
}
