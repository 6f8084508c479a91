package dev.agentdesk.terminal.session;

import dev.agentdesk.terminal.TerminalException;

/**
 * Anything that goes wrong with a supervised PTY session. The {@link Reason} says what failed so a
 * caller (CLI, HTTP API) can map it to a user error or a server fault without parsing the text.
 */
public class SessionException extends TerminalException {
  private static final long serialVersionUID = 1L;

  /** What failed. */
  public enum Reason {
    /** The argv, size, cwd or environment given to spawn is unusable (caller's fault). */
    INVALID_SPEC,
    /** An agent name that is not one of {@link Agent#names()}. */
    UNKNOWN_AGENT,
    /** A key name that is not one of {@link Key}'s names. */
    UNKNOWN_KEY,
    /** The operating system refused to start the program (not found, not executable, no PTY). */
    SPAWN_FAILED,
    /** Input, resize or capture on a session whose process has already exited. */
    SESSION_CLOSED,
    /** A capture was started while another one runs. */
    CAPTURE_ACTIVE,
    /** Reading or writing the PTY or a capture file failed. */
    IO,
    /** The host already runs as many sessions as it allows; one must end first. */
    TOO_MANY_RUNNING,
  }

  private final Reason reason;

  public SessionException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public SessionException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }

  /** True when the caller can fix it by changing what they asked for. */
  public boolean isUserError() {
    return reason == Reason.INVALID_SPEC || reason == Reason.UNKNOWN_AGENT || reason == Reason.UNKNOWN_KEY
        || reason == Reason.SPAWN_FAILED;
  }
}
