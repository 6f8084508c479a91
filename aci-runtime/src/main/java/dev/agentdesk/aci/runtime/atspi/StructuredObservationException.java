package dev.agentdesk.aci.runtime.atspi;

import dev.agentdesk.aci.runtime.AciRuntimeException;

/**
 * Every failure of the structured-observation engine. The message is the exact text a runtime
 * puts on the wire (nack / error result), so dispatch forwards {@link #getMessage()} unchanged;
 * {@link #kind()} is for code that must branch on the kind of failure.
 */
public final class StructuredObservationException extends AciRuntimeException {
  private static final long serialVersionUID = 1L;

  /** Machine-readable prefix of every stale-ref error; clients match on it to re-observe. */
  public static final String STALE_PREFIX = "stale_element_ref: ";

  /** Prefix of every observe failure that is not a request error. */
  public static final String OBSERVE_FAILED_PREFIX = "structured observation failed: ";

  /** The closed set of failure kinds. */
  public enum Kind {
    /** The request itself is invalid (e.g. {@code structured:false}, missing {@code text}). */
    BAD_REQUEST,
    /** No accessibility bus could be reached (no session bus, no a11y bus, connect refused). */
    BUS_UNAVAILABLE,
    /** The whole observe exceeded its hard deadline, or one AT-SPI call timed out on a verb. */
    TIMEOUT,
    /** The ref is malformed, was never minted, or its element is gone. */
    STALE_REF,
    /** The element exists but has no on-screen box to aim a pointer verb at. */
    NO_BOUNDS,
    /** The application refused or failed an element verb. */
    VERB_FAILED
  }

  private final Kind kind;

  public StructuredObservationException(Kind kind, String message) {
    super(runtimeReason(kind), message);
    this.kind = kind;
  }

  public StructuredObservationException(Kind kind, String message, Throwable cause) {
    super(runtimeReason(kind), message, cause);
    this.kind = kind;
  }

  /** The runtime-wide classification of each kind. */
  private static Reason runtimeReason(Kind kind) {
    return switch (kind) {
      case BAD_REQUEST, NO_BOUNDS -> Reason.BAD_REQUEST;
      case BUS_UNAVAILABLE, VERB_FAILED -> Reason.ENVIRONMENT;
      case TIMEOUT -> Reason.TIMEOUT;
      case STALE_REF -> Reason.NOT_FOUND;
    };
  }

  public Kind kind() {
    return kind;
  }

  static StructuredObservationException stale(String detail) {
    return new StructuredObservationException(Kind.STALE_REF, STALE_PREFIX + detail);
  }

  static StructuredObservationException busUnavailable(String detail, Throwable cause) {
    return new StructuredObservationException(
        Kind.BUS_UNAVAILABLE, OBSERVE_FAILED_PREFIX + "AT-SPI bus unavailable: " + detail, cause);
  }
}
