package dev.agentdesk.terminal.session;

import dev.agentdesk.terminal.parser.ParsedEvent;

/**
 * What a supervised session reports to its listeners, each stamped with the session-clock time
 * it happened at.
 */
public sealed interface SessionEvent {
  long atMs();

  /**
   * An event of the output parser, or one the session derived on the parser's terms: busy/idle
   * (shell-state), and choice-cleared when input, exit or a replacement resolves a menu.
   */
  record Parsed(long atMs, ParsedEvent event) implements SessionEvent {}

  /** The session state changed; {@code state} is the whole new value. */
  record StateChanged(long atMs, SessionState state) implements SessionEvent {}

  /** After an agent session-id conflict the session wrote a fresh id into the PTY. */
  record SessionIdReset(long atMs, String previousId, String newId) implements SessionEvent {}

  /** The process exited; 128+N when signal N ended it. */
  record Exited(long atMs, int exitCode) implements SessionEvent {}
}
