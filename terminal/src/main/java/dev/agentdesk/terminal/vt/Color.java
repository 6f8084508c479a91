package dev.agentdesk.terminal.vt;

/** A cell colour: the terminal's default, a palette index (0..255), or 24-bit RGB. */
public sealed interface Color {
  /** The default foreground or background. */
  Color DEFAULT = new Default();

  /** The terminal's default colour (the theme decides). */
  record Default() implements Color {}

  /** Palette entry: 0..7 ANSI, 8..15 bright, 16..231 colour cube, 232..255 grey ramp. */
  record Indexed(int index) implements Color {}

  /** 24-bit colour. */
  record Rgb(int red, int green, int blue) implements Color {}
}
