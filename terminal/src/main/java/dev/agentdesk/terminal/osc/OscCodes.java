package dev.agentdesk.terminal.osc;

/**
 * Wire constants of the OSC sequences the scanner looks for.
 *
 * <pre>
 *   ESC ] 9;4;&lt;state&gt;;&lt;value&gt;        BEL | ESC \    progress (state 0 remove, 1 set, 2 error, 3 indeterminate, 4 warning)
 *   ESC ] 777;notify;&lt;title&gt;;&lt;body&gt;  BEL | ESC \    desktop notification
 *   ESC ] 7770;key=value[;key=value…] BEL | ESC \    agent hook marker (state=busy|idle|awaiting …)
 * </pre>
 */
final class OscCodes {
  static final byte ESC = 0x1b;
  static final byte BEL = 0x07;
  /** The second byte of ESC ] (OSC introducer). */
  static final byte OSC_INTRODUCER = ']';
  /** The second byte of ESC \ (String Terminator). */
  static final byte ST_FINAL = '\\';
  /** CAN and SUB abort any control string. */
  static final byte CAN = 0x18;
  static final byte SUB = 0x1a;

  static final String PROGRESS_PREFIX = "9;4;";
  static final String NOTIFY_PREFIX = "777;";
  static final String HOOK_PREFIX = "7770;";

  /**
   * Longest OSC body kept. Longer bodies (titles, hyperlinks, images) are skipped to their
   * terminator without being stored, so a never-terminated sequence cannot grow memory: this is
   * the bound of the carry-over between reads.
   */
  static final int MAX_BODY = 4096;

  private OscCodes() {}
}
