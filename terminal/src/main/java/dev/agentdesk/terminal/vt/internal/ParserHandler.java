package dev.agentdesk.terminal.vt.internal;

/**
 * What the byte parser tells the screen. The parser knows escape-sequence syntax only; every
 * meaning (cursor, erase, modes, …) lives in the implementation. Arguments are reused between
 * calls: an implementation must not keep {@code buf} or {@code params}.
 */
public interface ParserHandler {
  /** Printable ASCII bytes {@code buf[from..to)}, all in 0x20..0x7E: the hot path for plain text. */
  void printAscii(byte[] buf, int from, int to);

  /** One printable code point outside ASCII (already decoded from UTF-8, or U+FFFD). */
  void print(int codepoint);

  /** A C0 control (0x00..0x1F) or a C1 control that has an immediate effect (IND, NEL, HTS, RI). */
  void execute(int control);

  /** A complete CSI sequence. */
  void csiDispatch(CsiParams params, int finalByte);

  /**
   * A complete ESC sequence: up to two intermediate bytes packed into {@code intermediates}
   * (first in bits 8..15, second in bits 0..7; 0 when none) and the final byte.
   */
  void escDispatch(int intermediates, int finalByte);

  /** A complete OSC string: the leading number (-1 when absent or not a number) and the rest. */
  void oscDispatch(int code, String payload);
}
