package dev.agentdesk.terminal.vt;

/**
 * Receives OSC strings the engine does not interpret itself (everything but the window title,
 * OSC 0 and 2; OSC 0 also sets the icon name, so it is passed on too). Called synchronously from
 * {@link VtEngine#feed}, in stream order.
 */
@FunctionalInterface
public interface OscListener {
  /**
   * @param code the OSC number (9 for "OSC 9;4;…"), or -1 when the string does not start with one
   * @param payload the text after "code;" (the whole string when there is no number), at most
   *     64 KiB
   */
  void onOsc(int code, String payload);
}
