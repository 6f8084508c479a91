package dev.agentdesk.app.serve.terminals;

import dev.agentdesk.terminal.vt.Color;

/** Turns the VT engine's colours into CSS hex colours for the browser; the default stays null. */
final class Palette {
  private Palette() {}

  // The 16 ANSI colours, tuned to read on the dashboard's dark background.
  private static final int[] ANSI = {
      0x1b1f24, 0xf85149, 0x3fb950, 0xd29922, 0x58a6ff, 0xbc8cff, 0x39c5cf, 0xb1bac4,
      0x6e7681, 0xff7b72, 0x56d364, 0xe3b341, 0x79c0ff, 0xd2a8ff, 0x56d4dd, 0xf0f6fc};

  private static final String[] TABLE = new String[256];

  static {
    for (int i = 0; i < 16; i++) {
      TABLE[i] = hex(ANSI[i]);
    }
    int[] levels = {0, 95, 135, 175, 215, 255};
    for (int i = 16; i < 232; i++) {
      int n = i - 16;
      TABLE[i] = hex((levels[n / 36] << 16) | (levels[(n / 6) % 6] << 8) | levels[n % 6]);
    }
    for (int i = 232; i < 256; i++) {
      int v = 8 + (i - 232) * 10;
      TABLE[i] = hex((v << 16) | (v << 8) | v);
    }
  }

  static String css(Color c) {
    if (c instanceof Color.Indexed ix) {
      return ix.index() >= 0 && ix.index() < 256 ? TABLE[ix.index()] : null;
    }
    if (c instanceof Color.Rgb rgb) {
      return hex((clamp(rgb.red()) << 16) | (clamp(rgb.green()) << 8) | clamp(rgb.blue()));
    }
    return null;
  }

  private static int clamp(int v) {
    return Math.max(0, Math.min(255, v));
  }

  private static String hex(int rgb) {
    return String.format("#%06x", rgb & 0xffffff);
  }
}
