package dev.agentdesk.agents;

import dev.agentdesk.terminal.session.PtySession;
import dev.agentdesk.terminal.session.SessionListener;
import dev.agentdesk.terminal.session.SessionSpec;
import java.util.List;
import java.util.UUID;

/**
 * Starts an agent's PTY. The default starts a {@link PtySession} and names it with a short random
 * id; a server passes its own host so the agent's terminal is one of its terminals (same id, its
 * screen mirror and sockets attached from the first byte).
 */
public interface TerminalHost {
  /** A started terminal: its id and session. */
  record Started(String terminalId, PtySession session) {}

  /**
   * Starts {@code spec} with {@code listener} attached from the first byte.
   *
   * @throws dev.agentdesk.terminal.session.SessionException when the program cannot start
   */
  Started start(SessionSpec spec, SessionListener listener);

  /** Called after the session's process has ended and the agents service is done with it. */
  default void ended(String terminalId) {}

  /** Called when the agent session that owned the terminal is discarded or forgotten: it may go. */
  default void removed(String terminalId) {}

  /** Plain PTY sessions with 8-character ids. */
  static TerminalHost direct() {
    return (spec, listener) -> new Started(UUID.randomUUID().toString().substring(0, 8),
        PtySession.start(spec, List.of(listener)));
  }
}
