package dev.agentdesk.terminal.session;

/**
 * Receives what a session produces. Called on the session's reader thread (or the thread that
 * wrote input or resized), in order; keep handlers short and never block on the session.
 */
public interface SessionListener {
  /** Raw bytes the child wrote, in original chunk boundaries. The array is the listener's to keep. */
  default void onOutput(byte[] chunk) {}

  /** A parsed event, a state change, a session-id reset or the exit. */
  default void onEvent(SessionEvent event) {}
}
