package dev.agentdesk.terminal.tcap;

import dev.agentdesk.terminal.TerminalException;
import java.util.Objects;

/** A .tcap file that cannot be read; the message names the byte offset where it went wrong. */
public final class CaptureFormatException extends TerminalException {
  private static final long serialVersionUID = 1L;

  /** What is wrong with the file. */
  public enum Reason {
    /** The file ends inside a record header or payload. */
    TRUNCATED,
    /** A direction byte other than 0 or 1. */
    BAD_DIRECTION,
    /** A payload length beyond the accepted maximum. */
    OVERSIZED_RECORD,
    /** A timestamp smaller than the previous record's. */
    TIME_WENT_BACKWARDS
  }

  private final Reason reason;
  private final long offset;

  CaptureFormatException(Reason reason, long offset, String detail) {
    super("malformed capture at byte offset " + offset + ": " + detail);
    this.reason = Objects.requireNonNull(reason);
    this.offset = offset;
  }

  public Reason reason() {
    return reason;
  }

  /** Byte offset in the file of the record that could not be read. */
  public long offset() {
    return offset;
  }
}
