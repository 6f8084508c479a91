package dev.agentdesk.agents;

import dev.agentdesk.terminal.session.PtySession;
import dev.agentdesk.terminal.session.SessionState;
import dev.agentdesk.transcripts.records.TokenUsage;
import java.time.Instant;

/**
 * The in-memory side of one agent session in this process: its PTY, the transcript reader and the
 * bookkeeping the status rules need. Fields are guarded by the object's monitor (the PTY reader
 * thread, the poller and API calls all touch them), except the transcript watch's, which only the
 * poller touches and does so without the monitor, so that parsing a large transcript never holds
 * up the PTY's output or state changes ({@code AgentSupervisor#pollAll}): {@code reader} (volatile:
 * snapshots read what its last poll published), {@code tokensFileSize}, {@code tokensCheckedAtMs},
 * {@code nextSearchAtMs}. {@code row} is volatile so that the poller may read it without the monitor;
 * it is still only replaced under the monitor.
 */
final class LiveAgent {
  volatile SessionRow row;
  PtySession pty;
  SessionState terminal;
  volatile TurnReader reader;
  /** {@code reader}'s line count when the terminal raised its current question. */
  long questionSeq;
  /** The transcript contradicted the terminal's current question; reset when a question is raised. */
  boolean questionContradicted;
  /** The first prompt, for agents that take it typed; null once sent. */
  String pendingPrompt;
  boolean sawOutput;
  Instant lastActivity;
  Instant lastPersistedActivity;
  TokenUsage tokens;
  /**
   * Usage of the transcripts this session left for a newer one (an agent that restarted itself: the
   * link's earlier files), counted in the tokens the watch reports, and how many files it sums; the
   * poller's, like {@code nextSuccessorCheckAtMs}.
   */
  TokenUsage earlierTokens = TokenUsage.ZERO;
  int earlierCounted;
  long nextSuccessorCheckAtMs;
  long tokensFileSize = -1;
  long tokensCheckedAtMs;
  long nextSearchAtMs;
  AgentStatus lastStatus;

  LiveAgent(SessionRow row) {
    this.row = row;
    this.lastActivity = row.lastActivityAt();
    this.lastPersistedActivity = row.lastActivityAt();
  }

  boolean running() {
    return pty != null && pty.isRunning();
  }

  TurnState turn() {
    TurnReader r = reader;
    return r == null ? TurnState.NONE : r.published();
  }
}
