package dev.agentdesk.terminal.vt.internal;

/** Column width of a printable code point: 0 (combines with the previous cell), 1 or 2. */
public final class CharWidth {
  private CharWidth() {}

  /** The Unicode version the width table was generated from. */
  public static String unicodeVersion() {
    return WidthTable.UNICODE_VERSION;
  }

  /** 0, 1 or 2. Callers never pass C0/C1 controls; they are handled by the parser. */
  public static int of(int cp) {
    if (cp < 0x300) {
      return 1; // Latin, the common case, has no zero- or double-width code points below U+0300.
    }
    if (in(WidthTable.ZERO_WIDTH, cp)) {
      return 0;
    }
    return in(WidthTable.DOUBLE_WIDTH, cp) ? 2 : 1;
  }

  private static boolean in(int[] ranges, int cp) {
    int lo = 0;
    int hi = ranges.length / 2 - 1;
    if (cp < ranges[0] || cp > ranges[ranges.length - 1]) {
      return false;
    }
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (cp < ranges[2 * mid]) {
        hi = mid - 1;
      } else if (cp > ranges[2 * mid + 1]) {
        lo = mid + 1;
      } else {
        return true;
      }
    }
    return false;
  }
}
