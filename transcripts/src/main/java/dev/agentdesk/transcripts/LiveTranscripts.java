package dev.agentdesk.transcripts;

import dev.agentdesk.transcripts.adapter.ProviderAdapter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The live side of the provider seam, for code that supervises running agents: where a freshly
 * launched agent's transcript is (each adapter knows where its tool writes, with the folders of
 * {@link HistoryFolders}), and the {@link TurnSignal}s its lines carry. Callers name a
 * {@link Provider} and never a field of its format.
 */
public final class LiveTranscripts {
  private LiveTranscripts() {}

  /** How long the agents' own clocks may lag ours (same machine, millisecond rounding). */
  public static final long CLOCK_SLACK_MS = 2000;

  /**
   * An agent just launched, as far as finding its transcript needs.
   *
   * @param launchId the session id the launcher gave the agent, where the tool takes one (Claude Code's
   *     {@code --session-id}), else null
   * @param cwd the folder the agent runs in, with symbolic links resolved
   * @param spawnedAt when the process started
   * @param claimed provider session ids already linked to other live sessions (never linked twice)
   */
  public record Launch(String launchId, Path cwd, Instant spawnedAt, Set<String> claimed) {
    public Launch {
      claimed = Set.copyOf(claimed);
    }
  }

  /** A found transcript: the provider's session id and the file its lines go to. */
  public record Located(Provider provider, String sessionId, Path file) {}

  /** A fresh signal reader for one transcript of {@code provider}. */
  public static TurnSignals signals(Provider provider) {
    return ProviderAdapter.of(provider).turnSignals();
  }

  /**
   * A number that changes whenever the located transcript {@code file} of {@code provider} may hold
   * something new (its size for an appended file); a watcher re-reads it only then.
   *
   * @throws java.io.IOException when it cannot be read
   */
  public static long version(Provider provider, Path file) throws java.io.IOException {
    return ProviderAdapter.of(provider).liveVersion(file);
  }

  /**
   * The transcript {@code launch} writes, if it exists yet, under {@code provider}'s default folders
   * for {@code env} (its {@code HOME} and the tool's own variable, never the JVM's).
   */
  public static Optional<Located> locate(Provider provider, Launch launch, Map<String, String> env) {
    return ProviderAdapter.of(provider).locate(launch, HistoryFolders.defaults(provider, env));
  }

  /**
   * The transcript {@code launch} moved on to after {@code current}, if its tool started a new one
   * in the same process (Gemini CLI restarts itself after the trust dialog and records the rest of
   * the session in a new chat file with a new id); empty for tools that keep one file per session.
   */
  public static Optional<Located> successor(Provider provider, Launch launch, Located current, Map<String, String> env) {
    return ProviderAdapter.of(provider).successor(launch, current, HistoryFolders.defaults(provider, env));
  }
}
