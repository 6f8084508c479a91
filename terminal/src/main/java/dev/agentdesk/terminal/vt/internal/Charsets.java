package dev.agentdesk.terminal.vt.internal;

/** The G0..G3 character sets a VT100 can designate: ASCII, DEC Special Graphics and UK. */
final class Charsets {
  private Charsets() {}

  /** DEC Special Graphics for 0x60..0x7E: line drawing and a few symbols. */
  private static final char[] DEC_GRAPHICS = (
      "\u25c6\u2592\u2409\u240c\u240d\u240a\u00b0\u00b1" // ` a b c d e f g
          + "\u2424\u240b\u2518\u2510\u250c\u2514\u253c\u23ba" // h i j k l m n o
          + "\u23bb\u2500\u23bc\u23bd\u251c\u2524\u2534\u252c" // p q r s t u v w
          + "\u2502\u2264\u2265\u03c0\u2260\u00a3\u00b7" // x y z { | } ~
  ).toCharArray();

  /** The charset an ESC ( / ) / * / + designation final byte selects (unknown ones mean ASCII). */
  static int designate(int finalByte) {
    return switch (finalByte) {
      case '0' -> Screen.CHARSET_DEC_GRAPHICS;
      case 'A' -> Screen.CHARSET_UK;
      default -> Screen.CHARSET_ASCII;
    };
  }

  static int map(int charset, int cp) {
    if (charset == Screen.CHARSET_DEC_GRAPHICS && cp >= 0x60 && cp <= 0x7e) {
      return DEC_GRAPHICS[cp - 0x60];
    }
    if (charset == Screen.CHARSET_UK && cp == '#') {
      return '\u00a3';
    }
    return cp;
  }
}
