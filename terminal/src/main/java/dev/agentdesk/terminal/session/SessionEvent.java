package dev.agentdesk.terminal.session;

/**
 * What a supervised session reports to its listeners, each stamped with the session-clock time
 * it happened at.
 */
public sealed interface SessionEvent {
  long atMs();

  /** The session state changed; {@code state} is the whole new value. */
  record StateChanged(long atMs, SessionState state) implements SessionEvent {}

  /** After an agent session-id conflict the session wrote a fresh id into the PTY. */
  record SessionIdReset(long atMs, String previousId, String newId) implements SessionEvent {}

  /** The process exited; 128+N when signal N ended it. */
  record Exited(long atMs, int exitCode) implements SessionEvent {}
}
