package dev.agentdesk.notify;

import java.util.Locale;

/** A notification or auto-resume request that cannot be done, with the reason as a code. */
public final class NotifyException extends RuntimeException {
  /** Why. */
  public enum Reason {
    /** The settings (file or API body) are not valid; the message says which part. */
    BAD_SETTINGS,
    /** A webhook URL or format is not usable. */
    BAD_WEBHOOK,
    /** The settings file cannot be read or written. */
    IO,
    /** No such session is known to auto-resume. */
    UNKNOWN_SESSION;

    public String code() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final Reason reason;

  public NotifyException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public NotifyException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }

  /** Bad input (settings, URLs, unknown sessions), as opposed to a failure of this machine. */
  public boolean isUserError() {
    return reason != Reason.IO;
  }
}
