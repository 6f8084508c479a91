package dev.agentdesk.terminal.session;

import dev.agentdesk.terminal.vt.LogLine;
import java.util.List;

/**
 * Receives what a session produces.
 *
 * <p><b>Threading contract.</b>
 * <ul>
 *   <li>{@link #onOutput} runs on the session's reader thread, before the chunk is analysed,
 *       <em>without</em> the session's lock held.
 *   <li>{@link #onLog} and {@link #onEvent} run with the session's lock held, on whichever thread
 *       moved the session: the reader (output, exit), the thread that wrote input or resized, or
 *       the one ticker thread shared by every session (timers: busy→idle, awaiting-input
 *       deadlines). Events of one session arrive in order.
 *   <li>A listener never blocks and never does slow work there (parse a file, query a database,
 *       write to a PTY, wait for a lock another thread holds while it calls into the session):
 *       the reader stalls the child's output, and the ticker stalls every other session's
 *       timers. Hand slow work to a thread of your own.
 *   <li>A listener that throws does not stop the session: the failure is reported once as
 *       {@link SessionEvent.AnalysisFailed} and output, events and the exit keep coming.
 * </ul>
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
