package dev.agentdesk.agents;

import dev.agentdesk.transcripts.LiveTranscripts;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.Transcripts;
import dev.agentdesk.transcripts.records.TokenUsage;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/**
 * One poller step for one live session: look for its transcript until found (every poll within
 * the timeout, then every few seconds, since Claude writes its file only after the first prompt),
 * then read what was appended, and refresh the token count through the transcripts module when the
 * file grew. Returns whether anything the status depends on changed.
 */
final class TranscriptWatch {
  /** After the timeout the search goes on at this pace. */
  static final long SLOW_SEARCH_MS = 2000;
  /** Token counts are recomputed (a full parse) at most this often while the file grows. */
  static final long TOKENS_EVERY_MS = 2000;
  /** How often a linked session looks for a newer file its agent moved to. */
  static final long SUCCESSOR_EVERY_MS = 1000;

  /** Finds a session's transcript ({@link TranscriptLocator#find}); it may read folders and take a while. */
  interface Finder {
    Optional<TranscriptLink> find(AgentType type, String launchId, Path worktree, Instant spawnedAt, Set<String> claimed);

    /** A newer transcript the session moved to from {@code current} ({@link TranscriptLocator#successor}); none by default. */
    default Optional<TranscriptLink> successor(AgentType type, String launchId, Path worktree, Instant spawnedAt,
        Set<String> claimed, TranscriptLink current) {
      return Optional.empty();
    }
  }

  private final Finder locator;
  private final Duration timeout;

  TranscriptWatch(Finder locator, Duration timeout) {
    this.locator = locator;
    this.timeout = timeout;
  }

  /**
   * Result of a step, for the caller to apply under the agent's monitor.
   *
   * @param newRow the row with a new transcript link or status (null when unchanged), made from the row
   *     the step read: the caller takes its link into the current row
   * @param changed whether the status may have changed
   * @param readLines whether new transcript lines were read (activity)
   * @param tokens the session's tokens after a fresh parse, or null when not re-read
   */
  record Step(SessionRow newRow, boolean changed, boolean readLines, TokenUsage tokens) {}

  /**
   * Called on the poller thread <em>without</em> {@code live}'s monitor: the search, the reading and
   * the parsing here may take long on a large transcript. It touches only the poller-owned fields of
   * {@link LiveAgent} and reads its (volatile) row; what the status depends on comes back in the step.
   */
  Step step(LiveAgent live, Set<String> claimed, long nowMs) {
    SessionRow row = live.row;
    SessionRow newRow = null;
    boolean changed = false;
    if (row.transcript() == null && row.transcriptStatus() != TranscriptStatus.UNSUPPORTED && nowMs >= live.nextSearchAtMs) {
      var found = locator.find(row.agent(), row.launchId(), row.worktree(), row.spawnedAt(), claimed);
      if (found.isPresent()) {
        newRow = row.withTranscript(found.get(), TranscriptStatus.LINKED);
        changed = true;
      } else if (row.transcriptStatus() == TranscriptStatus.SEARCHING
          && Instant.ofEpochMilli(nowMs).isAfter(row.spawnedAt().plus(timeout))) {
        newRow = row.withTranscript(null, TranscriptStatus.NOT_FOUND);
        changed = true;
      }
      if (newRow == null && row.transcriptStatus() == TranscriptStatus.NOT_FOUND) {
        live.nextSearchAtMs = nowMs + SLOW_SEARCH_MS;
      }
    }
    if (row.transcript() != null && newRow == null && nowMs >= live.nextSuccessorCheckAtMs) {
      // An agent that restarts itself (Gemini CLI after the trust dialog) goes on in a new file: follow it,
      // keeping the left file in the link (its responses are the session's too: tokens and cost count it).
      live.nextSuccessorCheckAtMs = nowMs + SUCCESSOR_EVERY_MS;
      var next = locator.successor(row.agent(), row.launchId(), row.worktree(), row.spawnedAt(), claimed, row.transcript());
      if (next.isPresent()) {
        // Once per process: a restart to apply a trust is a one-off, and a later file in the same folder is
        // more likely another session's (two sessions in place).
        live.nextSuccessorCheckAtMs = Long.MAX_VALUE;
        live.tokensFileSize = -1;
        live.tokensCheckedAtMs = 0;
        newRow = row.withTranscript(row.transcript().movedTo(next.get()), TranscriptStatus.LINKED);
        changed = true;
      }
    }
    SessionRow current = newRow != null ? newRow : row;
    boolean read = false;
    TokenUsage tokens = null;
    if (current.transcript() != null) {
      TurnReader reader = live.reader;
      if (reader == null || !reader.file().equals(current.transcript().path())) {
        live.reader = reader = new TurnReader(current.transcript().path(), readerProvider(current.transcript()));
      }
      if (reader.poll()) {
        read = true;
        changed = true;
      }
      tokens = refreshTokens(live, current, nowMs);
    }
    return new Step(newRow, changed, read, tokens);
  }

  /** The provider whose signals a linked file carries; aider's chat history is read for activity only. */
  private static Provider readerProvider(TranscriptLink link) {
    try {
      return Provider.parse(link.provider());
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * The whole usage of the files the session left ({@link TranscriptLink#earlier}), read once per move
   * (they are no longer written to); zero for one that is unreadable.
   */
  private static TokenUsage earlierUsage(LiveAgent live, Provider provider, TranscriptLink link) {
    if (live.earlierCounted != link.earlier().size()) {
      TokenUsage sum = TokenUsage.ZERO;
      for (TranscriptLink.Part p : link.earlier()) {
        try {
          sum = sum.plus(Transcripts.parse(provider, p.path()).detail().session().usage());
        } catch (RuntimeException e) {
          // gone or unreadable: it adds nothing
        }
      }
      live.earlierTokens = sum;
      live.earlierCounted = link.earlier().size();
    }
    return live.earlierTokens;
  }

  /**
   * The tokens after a fresh parse when the file grew and the last parse is old enough, else null;
   * with the usage of files the session moved on from.
   */
  private static TokenUsage refreshTokens(LiveAgent live, SessionRow row, long nowMs) {
    Provider provider;
    try {
      provider = Provider.parse(row.transcript().provider());
    } catch (IllegalArgumentException e) {
      return null; // linked but not a format the transcripts module reads
    }
    long size;
    try {
      size = LiveTranscripts.version(provider, row.transcript().path());
    } catch (java.io.IOException e) {
      return null;
    }
    if (size == live.tokensFileSize || nowMs - live.tokensCheckedAtMs < TOKENS_EVERY_MS) {
      return null;
    }
    live.tokensCheckedAtMs = nowMs;
    live.tokensFileSize = size;
    try {
      return earlierUsage(live, provider, row.transcript())
          .plus(Transcripts.parse(provider, row.transcript().path()).detail().session().usage());
    } catch (RuntimeException e) {
      return null; // a file mid-rewrite; the next growth tries again
    }
  }
}
