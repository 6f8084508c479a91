package dev.agentdesk.terminal.vt.internal;

/** Column width of a printable code point: 0 (combines with the previous cell), 1 or 2. */
public final class CharWidth {
  private CharWidth() {}

  /** The Unicode version the width table was generated from. */
  public static String unicodeVersion() {
    return WidthTable.UNICODE_VERSION;
  }

  /**
   * Widths of the whole Basic Multilingual Plane, looked up in one step: box drawing, block
   * elements and CJK are most of the non-ASCII text agents print, and two binary searches per
   * character showed in profiles of their streams. 64 KiB, filled once from the range tables.
   */
  private static final byte[] BMP = new byte[0x10000];

  static {
    java.util.Arrays.fill(BMP, (byte) 1);
    fill(WidthTable.DOUBLE_WIDTH, (byte) 2);
    fill(WidthTable.ZERO_WIDTH, (byte) 0); // after: zero width wins where the tables overlap, as in search()
  }

  /** Sets the width of every BMP code point at or above U+0300 in the (start, end) pairs of {@code ranges}. */
  private static void fill(int[] ranges, byte width) {
    for (int i = 0; i < ranges.length; i += 2) {
      int from = Math.max(0x300, ranges[i]);
      int to = Math.min(0xffff, ranges[i + 1]);
      if (from <= to) {
        java.util.Arrays.fill(BMP, from, to + 1, width);
      }
    }
  }

  /** 0, 1 or 2. Callers never pass C0/C1 controls; they are handled by the parser. */
  public static int of(int cp) {
    return cp < 0x10000 ? BMP[cp & 0xffff] : search(cp);
  }

  private static int search(int cp) {
    if (cp < 0x300) {
      return 1; // Latin has no zero- or double-width code points below U+0300.
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
