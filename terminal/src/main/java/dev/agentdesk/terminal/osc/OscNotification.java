package dev.agentdesk.terminal.osc;

import java.util.Map;
import java.util.Objects;

/** An OSC sequence of interest found in the raw output stream, before the VT engine consumes it. */
public sealed interface OscNotification {

  /** OSC 9;4 (ConEmu/Windows Terminal progress): state 0–4, value 0–100. */
  record ProgressReport(int state, int value) implements OscNotification {}

  /** OSC 777;notify;title;body (a desktop notification). */
  record DesktopNotification(String title, String body) implements OscNotification {
    public DesktopNotification {
      Objects.requireNonNull(title, "title");
      Objects.requireNonNull(body, "body");
    }
  }

  /**
   * OSC 7770 from an agent hook: {@code key=value} fields, e.g. {@code state=awaiting}. Its mere
   * presence proves the session's hook instrumentation works.
   */
  record HookMarker(Map<String, String> fields) implements OscNotification {
    public HookMarker {
      fields = Map.copyOf(fields);
    }

    /** The {@code state} field, or null. */
    public String state() {
      return fields.get("state");
    }
  }
}
