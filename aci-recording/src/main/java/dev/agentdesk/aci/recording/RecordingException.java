package dev.agentdesk.aci.recording;

import java.nio.file.Path;

/**
 * A recording that cannot be written or read: the folder, a segment line, a missing frame. Its
 * {@link Kind} says which, so a caller (the dashboard's list) can tell a damaged recording from an
 * I/O problem; {@link #file()} names the file at fault when there is one.
 */
public final class RecordingException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What is wrong, each with a stable code for machine-readable errors. */
  public enum Kind {
    /** The folder does not exist or holds no segment. */
    NOT_FOUND("recording_not_found"),
    /** A segment's header names another format than agentdesk-aci. */
    NOT_A_RECORDING("not_a_recording"),
    /** A segment is in a format version this build does not read. */
    UNSUPPORTED_VERSION("unsupported_recording_version"),
    /** A line before the last one is not a recording entry: the file was damaged after it was written. */
    CORRUPT("corrupt_recording"),
    /** A frame a message names is not in {@code frames/}. */
    MISSING_FRAME("missing_frame"),
    /** Reading, writing, connecting or anything else. */
    OTHER("recording_failed");

    private final String code;

    Kind(String code) {
      this.code = code;
    }

    public String code() {
      return code;
    }
  }

  private final Kind kind;
  private final transient Path file;

  public RecordingException(String message) {
    this(Kind.OTHER, null, message, null);
  }

  public RecordingException(String message, Throwable cause) {
    this(Kind.OTHER, null, message, cause);
  }

  public RecordingException(Kind kind, Path file, String message, Throwable cause) {
    super(message, cause);
    this.kind = java.util.Objects.requireNonNull(kind, "kind");
    this.file = file;
  }

  public Kind kind() {
    return kind;
  }

  /** The file at fault (a segment, a frame), or null. */
  public Path file() {
    return file;
  }
}
