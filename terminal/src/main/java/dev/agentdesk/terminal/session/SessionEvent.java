package dev.agentdesk.terminal.session;

import dev.agentdesk.terminal.parser.ParsedEvent;

/**
 * What a supervised session reports to its listeners, each stamped with the session-clock time
 * it happened at.
 */
public sealed interface SessionEvent {
  long atMs();

  /**
   * A parser event. {@code source} says who decided it: {@link Source#PARSER} for the output
   * parser's own events (the same ones {@code agentdesk term parse} replays from a capture of this
   * session), {@link Source#SESSION} for the ones the session derives on the parser's terms:
   * busy/idle (shell-state, on the session's per-agent idle window) and choice-cleared when exit
   * or a replacement ends a menu.
   */
  record Parsed(long atMs, ParsedEvent event, Source source) implements SessionEvent {}

  /** Who produced a {@link Parsed} event. */
  enum Source { PARSER, SESSION }

  /** The session state changed; {@code state} is the whole new value. */
  record StateChanged(long atMs, SessionState state) implements SessionEvent {}

  /** After an agent session-id conflict the session wrote a fresh id into the PTY. */
  record SessionIdReset(long atMs, String previousId, String newId) implements SessionEvent {}

  /**
   * Analysing the output failed (a bug, reported once); the session keeps running and passing
   * bytes through, but its state may be stale from here on.
   */
  record AnalysisFailed(long atMs, String message) implements SessionEvent {}

  /**
   * A capture ended: stopped, ended by the exit, or broken by a write error ({@code error} says
   * which; null for a normal stop). What was written before stays a valid capture.
   */
  record CaptureStopped(long atMs, java.nio.file.Path file, String error) implements SessionEvent {}

  /** The process exited; 128+N when signal N ended it. */
  record Exited(long atMs, int exitCode) implements SessionEvent {}
}
