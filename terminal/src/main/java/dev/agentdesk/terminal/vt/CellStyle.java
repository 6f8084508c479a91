package dev.agentdesk.terminal.vt;

/** The rendition of one cell (SGR state when it was written). */
public record CellStyle(
    Color foreground,
    Color background,
    boolean bold,
    boolean dim,
    boolean italic,
    boolean underline,
    boolean blink,
    boolean inverse,
    boolean invisible,
    boolean strikethrough,
    boolean overline) {
  public static final CellStyle DEFAULT =
      new CellStyle(Color.DEFAULT, Color.DEFAULT, false, false, false, false, false, false, false, false, false);
}
