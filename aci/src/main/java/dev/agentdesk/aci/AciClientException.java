package dev.agentdesk.aci;

import java.util.Objects;

/** A failure of the client SDK talking to a runtime; {@link #reason()} says which kind. */
public final class AciClientException extends AciException {
  private static final long serialVersionUID = 1L;

  /** What went wrong on the client side of a session. */
  public enum Reason {
    /** The WebSocket could not be opened. */
    CONNECT_FAILED,
    /** The runtime refused the hello (version, token) or answered something other than welcome. */
    HANDSHAKE_FAILED,
    /** No reply arrived within the call's timeout. */
    TIMEOUT,
    /** The session is closed (by us, by the runtime, or by a transport error). */
    CLOSED,
    /** The request uses a field or verb that the runtime's welcome does not advertise. */
    NOT_ADVERTISED,
    /** The runtime answered {@code ok:false}; the message carries its error text. */
    REMOTE_ERROR,
    /** The runtime sent a reply of the wrong shape for the request. */
    PROTOCOL_VIOLATION
  }

  private final Reason reason;

  public AciClientException(Reason reason, String message) {
    this(reason, message, null);
  }

  public AciClientException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  public Reason reason() {
    return reason;
  }
}
