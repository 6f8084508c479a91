package dev.agentdesk.aci.recording;

/** A recording that cannot be written or read: the folder, a segment line, a missing frame. */
public final class RecordingException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public RecordingException(String message) {
    super(message);
  }

  public RecordingException(String message, Throwable cause) {
    super(message, cause);
  }
}
