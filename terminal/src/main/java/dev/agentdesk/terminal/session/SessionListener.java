package dev.agentdesk.terminal.session;

import dev.agentdesk.terminal.vt.LogLine;
import java.util.List;

/**
 * Receives what a session produces. Called on the session's reader thread (or the thread that
 * wrote input or resized), in order; keep handlers short and never block on the session.
 */
public interface SessionListener {
  /** Raw bytes the child wrote, in original chunk boundaries. The array is the listener's to keep. */
  default void onOutput(byte[] chunk) {}

  /**
   * Rows that scrolled off the primary screen into the durable log, in order, each once. A
   * consumer that must not lose any (a persistent log) takes them here; the engine keeps only the
   * last {@code VtEngine.DEFAULT_LOG_CAPACITY}.
   */
  default void onLog(List<LogLine> lines) {}

  /** A parsed event, a state change, a session-id reset or the exit. */
  default void onEvent(SessionEvent event) {}
}
