package dev.agentdesk.mcp;

/**
 * A port could not do what a tool asked. Every one becomes an MCP tool error ({@code isError})
 * whose text starts with the reason's code, so an agent can tell a typo from a stopped server.
 */
public final class PortException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What went wrong, by who can fix it. */
  public enum Reason {
    /** No such session, terminal, agent or sandbox. */
    NOT_FOUND("not_found"),
    /** The arguments are wrong (the message says which and why). */
    BAD_ARGUMENTS("bad_arguments"),
    /** A control tool was called without control being allowed. */
    NOT_ALLOWED("not_allowed"),
    /** The thing exists but cannot do that now (exited terminal, exec not offered, …). */
    CONFLICT("conflict"),
    /** What the tool needs is not reachable: no running server, database unreadable, sandbox down. */
    UNAVAILABLE("unavailable");

    private final String code;

    Reason(String code) {
      this.code = code;
    }

    public String code() {
      return code;
    }
  }

  private final Reason reason;

  public PortException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public PortException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }

  public static PortException notFound(String message) {
    return new PortException(Reason.NOT_FOUND, message);
  }

  public static PortException badArguments(String message) {
    return new PortException(Reason.BAD_ARGUMENTS, message);
  }
}
