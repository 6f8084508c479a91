package dev.agentdesk.terminal.parser;

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

  static String text(ScreenView screen, int start, int end) {
    if (!screen.isWrapped(start)) {
      return screen.row(start);
    }
    StringBuilder sb = new StringBuilder(screen.row(start));
    for (int r = start; r + 1 < end && r - start < MAX_ROWS && screen.isWrapped(r); r++) {
      sb.append(screen.row(r + 1));
    }
    return sb.toString();
  }

}
