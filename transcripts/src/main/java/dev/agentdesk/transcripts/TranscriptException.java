package dev.agentdesk.transcripts;

/** The one exception root of the transcripts module; {@link #reason()} says what kind of failure it is. */
public class TranscriptException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Closed set of failure kinds. */
  public enum Reason {
    /** A caller asked to assemble detail from a delta session record. */
    DELTA_SESSION,
    /** The assembler input does not hold exactly one session record for the session. */
    INCOMPLETE_STREAM,
    /** No such session in the store. */
    UNKNOWN_SESSION,
    /** A source file or directory could not be read. */
    SOURCE_UNREADABLE,
    /** A file is not a transcript any adapter understands. */
    UNRECOGNISED_SOURCE,
    /** The database failed or is unusable. */
    STORE_FAILURE,
    /** The database was written by a newer agentdesk. */
    SCHEMA_TOO_NEW,
    /** A database URL names an engine this build does not support. */
    UNSUPPORTED_DATABASE,
    /** A search query the full-text engine rejected. */
    BAD_QUERY,
    /** A price table or price override file that cannot be used. */
    BAD_PRICE_FILE
  }

  private final Reason reason;

  public TranscriptException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public TranscriptException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
