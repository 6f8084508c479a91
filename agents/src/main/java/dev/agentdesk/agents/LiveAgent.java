package dev.agentdesk.agents;

import dev.agentdesk.terminal.session.PtySession;
import dev.agentdesk.terminal.session.SessionState;
import dev.agentdesk.transcripts.records.TokenUsage;
import java.time.Instant;

/**
 * The in-memory side of one agent session in this process: its PTY, the transcript reader and the
 * bookkeeping the status rules need. Fields are guarded by the object's monitor; the PTY reader
 * thread, the poller and API calls all touch it.
 */
final class LiveAgent {
  SessionRow row;
  PtySession pty;
  SessionState terminal;
  TurnReader reader;
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
    return reader == null ? TurnState.NONE : reader.state();
  }
}
