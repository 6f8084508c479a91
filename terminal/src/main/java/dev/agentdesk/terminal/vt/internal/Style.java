package dev.agentdesk.terminal.vt.internal;

/**
 * Cell attributes packed in one {@code long} so that a row's styles are one primitive array:
 * bits 0..25 foreground colour, 26..51 background colour, 52..63 flags. A colour is 2 bits of
 * kind ({@link #DEFAULT}, {@link #INDEXED}, {@link #RGB}) above 24 bits of value (palette index or
 * 0xRRGGBB). {@code 0} is the default style.
 */
public final class Style {
  private Style() {}

  public static final int DEFAULT = 0;
  public static final int INDEXED = 1;
  public static final int RGB = 2;

  public static final int BOLD = 1;
  public static final int DIM = 1 << 1;
  public static final int ITALIC = 1 << 2;
  public static final int UNDERLINE = 1 << 3;
  public static final int BLINK = 1 << 4;
  public static final int INVERSE = 1 << 5;
  public static final int INVISIBLE = 1 << 6;
  public static final int STRIKETHROUGH = 1 << 7;
  public static final int OVERLINE = 1 << 8;
  /**
   * DECSCA protection: not an SGR attribute (SGR 0 keeps it), only DECSED and DECSEL honour it.
   * Erased cells never carry it ({@link #eraseFill} keeps the background only).
   */
  public static final int PROTECTED = 1 << 9;
  static final long PROTECTED_BIT = (long) PROTECTED << 52;

  private static final long COLOR_MASK = (1L << 26) - 1;
  private static final int BG_SHIFT = 26;
  private static final int FLAG_SHIFT = 52;

  public static int color(int kind, int value) {
    return (kind << 24) | (value & 0xffffff);
  }

  public static int kind(int color) {
    return color >>> 24;
  }

  public static int value(int color) {
    return color & 0xffffff;
  }

  public static int fg(long style) {
    return (int) (style & COLOR_MASK);
  }

  public static int bg(long style) {
    return (int) ((style >>> BG_SHIFT) & COLOR_MASK);
  }

  public static int flags(long style) {
    return (int) (style >>> FLAG_SHIFT);
  }

  public static long withFg(long style, int color) {
    return (style & ~COLOR_MASK) | (color & COLOR_MASK);
  }

  public static long withBg(long style, int color) {
    return (style & ~(COLOR_MASK << BG_SHIFT)) | ((long) (color & COLOR_MASK) << BG_SHIFT);
  }

  public static long withFlag(long style, int flag, boolean on) {
    long bit = (long) flag << FLAG_SHIFT;
    return on ? style | bit : style & ~bit;
  }

  public static boolean isProtected(long style) {
    return (style & PROTECTED_BIT) != 0;
  }

  /** The style erased cells get: only the background colour survives (xterm's BCE behaviour). */
  public static long eraseFill(long style) {
    return style & (COLOR_MASK << BG_SHIFT);
  }
}
