package dev.agentdesk.terminal.parser;

import dev.agentdesk.terminal.vt.internal.CharWidth;

/** Soft-wrapped screen rows read as one logical line (bounded, so a wrapped wall of text stays cheap). */
final class LogicalLines {
  /** Longest logical line (in rows) the line rules read. */
  static final int MAX_ROWS = 8;

  private LogicalLines() {}

  /** Last row of the logical line starting at {@code start}. */
  static int endRow(ScreenView screen, int start, int end) {
    int r = start;
    while (r + 1 < end && r - start < MAX_ROWS && screen.isWrapped(r)) {
      r++;
    }
    return r;
  }

  /** Soft-wrapped rows joined from the first row of a logical line (bounded). */
  static int start(ScreenView screen, int row) {
    int r = row;
    while (r > 0 && row - r < MAX_ROWS && screen.isWrapped(r - 1)) {
      r--;
    }
    return r;
  }

  /**
   * The logical line's text as the screen shows it: each wrapping row keeps the blanks it ends
   * with (the snapshot trims them), so "organization's " + "rate" reads "organization's rate".
   */
  static String text(ScreenView screen, int start, int end) {
    if (!screen.isWrapped(start)) {
      return screen.row(start);
    }
    StringBuilder sb = new StringBuilder(screen.row(start));
    padToWidth(sb, screen.row(start), screen.cols());
    for (int r = start; r + 1 < end && r - start < MAX_ROWS && screen.isWrapped(r); r++) {
      String next = screen.row(r + 1);
      sb.append(next);
      if (screen.isWrapped(r + 1) && r + 1 + 1 < end && r + 1 - start < MAX_ROWS) {
        padToWidth(sb, next, screen.cols());
      }
    }
    return sb.toString();
  }

  /** Appends the blanks a trimmed row of {@code cols} cells lost at its right edge. */
  private static void padToWidth(StringBuilder sb, String row, int cols) {
    int width = 0;
    for (int i = 0; i < row.length(); ) {
      int cp = row.codePointAt(i);
      width += CharWidth.of(cp);
      i += Character.charCount(cp);
    }
    for (int w = width; w < cols; w++) {
      sb.append(' ');
    }
  }

}
