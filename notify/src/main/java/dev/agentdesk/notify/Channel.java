package dev.agentdesk.notify;

import java.util.Locale;

/** Where a notification goes. */
public enum Channel {
  /** The dashboard: the browser's Notification API (and the page title's count, and the sound). */
  BROWSER,
  /** A freedesktop notification on the session bus of the desktop {@code serve} runs on. */
  DESKTOP,
  /** Every {@code --webhook} URL. */
  WEBHOOK;

  public String code() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Channel named(String code) {
    for (Channel c : values()) {
      if (c.code().equals(code)) {
        return c;
      }
    }
    throw new NotifyException(NotifyException.Reason.BAD_SETTINGS, "unknown channel '" + code
        + "'; known: browser, desktop, webhook");
  }
}
