package dev.agentdesk.agents;

import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.Transcripts;
import dev.agentdesk.transcripts.records.TokenUsage;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
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

  private final TranscriptLocator locator;
  private final Duration timeout;

  TranscriptWatch(TranscriptLocator locator, Duration timeout) {
    this.locator = locator;
    this.timeout = timeout;
  }

  /** Result of a step: the row to store (null when unchanged) and whether the status may have changed. */
  record Step(SessionRow newRow, boolean changed) {}

  /** Called with {@code live}'s monitor held. */
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
    SessionRow current = newRow != null ? newRow : row;
    if (current.transcript() != null) {
      if (live.reader == null || !live.reader.file().equals(current.transcript().path())) {
        live.reader = new TurnReader(current.transcript().path(), readerProvider(current.transcript()));
      }
      if (live.reader.poll()) {
        live.lastActivity = Instant.ofEpochMilli(nowMs);
        changed = true;
      }
      changed |= refreshTokens(live, current, nowMs);
    }
    return new Step(newRow, changed);
  }

  /** The provider whose signals a linked file carries; aider's chat history is read for activity only. */
  private static Provider readerProvider(TranscriptLink link) {
    try {
      return Provider.parse(link.provider());
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static boolean refreshTokens(LiveAgent live, SessionRow row, long nowMs) {
    Provider provider;
    try {
      provider = Provider.parse(row.transcript().provider());
    } catch (IllegalArgumentException e) {
      return false; // linked but not a format the transcripts module reads (gemini, aider, …)
    }
    long size;
    try {
      size = Files.size(row.transcript().path());
    } catch (java.io.IOException e) {
      return false;
    }
    if (size == live.tokensFileSize || nowMs - live.tokensCheckedAtMs < TOKENS_EVERY_MS) {
      return false;
    }
    live.tokensCheckedAtMs = nowMs;
    live.tokensFileSize = size;
    try {
      TokenUsage u = Transcripts.parse(provider, row.transcript().path()).detail().session().usage();
      boolean changed = !u.equals(live.tokens);
      live.tokens = u;
      return changed;
    } catch (RuntimeException e) {
      return false; // a file mid-rewrite; the next growth tries again
    }
  }
}
