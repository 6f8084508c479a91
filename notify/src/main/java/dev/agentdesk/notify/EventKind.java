package dev.agentdesk.notify;

import java.util.Locale;

/** What a notification is about: the state changes of a session worth telling a user who looked away. */
public enum EventKind {
  /** The session started waiting for the user: a question or a choice menu. */
  AWAITING_INPUT,
  /** The session hit a rate or usage limit. */
  RATE_LIMIT,
  /** The agent reported an API error. */
  API_ERROR,
  /** A pull/merge request URL appeared. */
  PR_OPENED,
  /** The agent finished its turn (busy, then idle, not waiting on a question). */
  TURN_FINISHED,
  /** The process exited with a non-zero status. */
  EXIT_ERROR,
  /** Auto-resume typed the resume text after a limit reset. */
  AUTO_RESUMED;

  /** The wire name: {@code awaiting_input}, {@code rate_limit}, … */
  public String code() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The kind named by {@code code}; throws a {@link NotifyException} naming the known ones. */
  public static EventKind named(String code) {
    for (EventKind k : values()) {
      if (k.code().equals(code)) {
        return k;
      }
    }
    throw new NotifyException(NotifyException.Reason.BAD_SETTINGS, "unknown event '" + code + "'; known: "
        + java.util.Arrays.stream(values()).map(EventKind::code).toList());
  }
}
