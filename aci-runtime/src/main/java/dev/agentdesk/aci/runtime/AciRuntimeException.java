package dev.agentdesk.aci.runtime;

/**
 * The one exception root of the runtime. Its message is the exact, machine-readable error string a
 * client receives (for example {@code "point_px out of range: (5000, 3) — must be within [0, 1280) x [0, 800)"}),
 * so every failure travels to the wire unchanged; {@link #reason()} classifies it for code.
 */
public class AciRuntimeException extends RuntimeException {
  /** What kind of failure this is. */
  public enum Reason {
    /** The request itself is wrong (a bad field value, a missing target, an unknown key name). */
    BAD_REQUEST,
    /** This build or this environment cannot do what was asked. */
    UNSUPPORTED,
    /** Something the request names does not exist (a window id, a title). */
    NOT_FOUND,
    /** The desktop or the OS failed underneath a valid request. */
    ENVIRONMENT,
    /** A runtime limit was reached (concurrent execs, sizes). */
    LIMIT,
    /** Operator policy forbids it. */
    POLICY,
    /** A wait ran out. */
    TIMEOUT
  }

  private final Reason reason;

  public AciRuntimeException(Reason reason, String wireMessage) {
    super(wireMessage);
    this.reason = reason;
  }

  public AciRuntimeException(Reason reason, String wireMessage, Throwable cause) {
    super(wireMessage, cause);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }

  public static AciRuntimeException badRequest(String message) {
    return new AciRuntimeException(Reason.BAD_REQUEST, message);
  }

  public static AciRuntimeException environment(String message) {
    return new AciRuntimeException(Reason.ENVIRONMENT, message);
  }
}
