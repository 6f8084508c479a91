package dev.agentdesk.aci.runtime.atspi.internal;

/** One failed AT-SPI call, classified so callers can tell a vanished element from a bug. */
public final class BusCallException extends Exception {
  private static final long serialVersionUID = 1L;

  /** Why the call failed. */
  public enum Kind {
    /** No reply within the per-call timeout or the walk budget. */
    TIMEOUT,
    /** The application or object is gone (service unknown, unknown object, defunct). */
    GONE,
    /** The application answered with a D-Bus error. */
    ERROR,
    /** The reply did not have the shape AT-SPI specifies. */
    PROTOCOL,
    /** The bus connection itself failed. */
    DISCONNECTED
  }

  private final Kind kind;

  public BusCallException(Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }

  public static BusCallException protocol(String message) {
    return new BusCallException(Kind.PROTOCOL, "unexpected AT-SPI reply: " + message);
  }
}
