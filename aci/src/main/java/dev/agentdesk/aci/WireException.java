package dev.agentdesk.aci;

import java.util.Objects;

/**
 * A message or frame that is not valid ACI v0: malformed JSON, a missing or unknown field, a wrong
 * type, a broken schema rule, or a binary frame whose ranges do not fit. {@link #reason()} is the
 * machine-readable kind and {@link #path()} the JSON pointer of the offending field ({@code ""}
 * for the whole message).
 */
public final class WireException extends AciException {
  private static final long serialVersionUID = 1L;

  /** What kind of contract breach this is. */
  public enum Reason {
    /** The text is not one JSON value (syntax error, trailing tokens, duplicate keys). */
    MALFORMED_JSON,
    /** The {@code type} discriminator names no known message. */
    UNKNOWN_TYPE,
    /** {@code hello.v}/{@code welcome.v} is not 0. */
    UNSUPPORTED_VERSION,
    /** A required field is absent. */
    MISSING_FIELD,
    /** A field that an {@code additionalProperties:false} object does not define. */
    UNKNOWN_FIELD,
    /** A field has the wrong JSON type (string for number, non-boolean, ...). */
    WRONG_TYPE,
    /** A field has the right type but a value outside its enum, pattern, bounds or length. */
    INVALID_VALUE,
    /** A cross-field rule of the schema ({@code allOf}/{@code if}/{@code then}) is broken. */
    RULE_VIOLATION,
    /** The bundled schema rejected a message (see {@code WireContract}). */
    SCHEMA_VIOLATION,
    /** A binary frame shorter than its 4-byte length prefix or its declared header. */
    FRAME_TRUNCATED,
    /** A binary frame whose {@code off}/{@code len} points outside the payload area. */
    RANGE_OUT_OF_BOUNDS,
    /** A binary frame with a negative offset or length. */
    NEGATIVE_RANGE,
    /** A binary frame whose payload ranges overlap. */
    OVERLAPPING_RANGES,
    /** A binary frame that carries no payload locator (neither image, tiles nor data). */
    MISSING_PAYLOAD
  }

  private final Reason reason;
  private final String path;
  private final String detail;

  public WireException(Reason reason, String path, String detail) {
    this(reason, path, detail, null);
  }

  public WireException(Reason reason, String path, String detail, Throwable cause) {
    super(format(reason, path, detail), cause);
    this.reason = Objects.requireNonNull(reason, "reason");
    this.path = path == null ? "" : path;
    this.detail = detail;
  }

  private static String format(Reason reason, String path, String detail) {
    String where = path == null || path.isEmpty() ? "" : " at " + path;
    return reason.name().toLowerCase(java.util.Locale.ROOT) + where + ": " + detail;
  }

  /** The machine-readable kind of breach. */
  public Reason reason() {
    return reason;
  }

  /**
   * The same breach located inside a parent: {@code prefix} (a JSON pointer such as
   * {@code /action}) is put in front of {@link #path()}.
   */
  public WireException under(String prefix) {
    WireException moved = new WireException(reason, prefix + path, detail(), getCause());
    moved.setStackTrace(getStackTrace());
    return moved;
  }

  /** The human part of the message, without reason and path. */
  public String detail() {
    return detail;
  }

  /** JSON pointer of the offending field, e.g. {@code /action/target/x}; empty for the whole message. */
  public String path() {
    return path;
  }
}
