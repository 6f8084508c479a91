package dev.agentdesk.terminal;

/**
 * Root of every exception the terminal module throws on purpose. Subclasses name what failed
 * (for example a malformed capture file) and carry the context a caller needs to report it.
 */
public class TerminalException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public TerminalException(String message) {
    super(message);
  }

  public TerminalException(String message, Throwable cause) {
    super(message, cause);
  }
}
