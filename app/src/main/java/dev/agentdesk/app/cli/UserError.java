package dev.agentdesk.app.cli;

/** A problem with the user's input or environment that they can fix; its message says how. */
public final class UserError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public UserError(String message) {
    super(message);
  }

  public UserError(String message, Throwable cause) {
    super(message, cause);
  }
}
