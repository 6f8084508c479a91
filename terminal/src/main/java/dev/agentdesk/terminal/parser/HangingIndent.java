package dev.agentdesk.terminal.parser;

/**
 * Claude Code wraps its own messages (Ink lays out the text; the terminal never soft-wraps it):
 * a {@code "● "} message continues on rows indented two columns, a {@code "  ⎿  "} result on rows
 * indented five, so "API Error: 529 … try again in a moment. If" / "  persists, check …" is one
 * message on two rows. The rate-limit and API-error rules read such a message whole; other rules
 * keep reading rows (a question is verified against the row it is on). Copilot CLI does the same
 * one column in: {@code " ✗ "} or {@code " ● "} messages continue on rows indented three.
 */
final class HangingIndent {
  private HangingIndent() {}

  /** The column the message text of a head row starts at, or -1 when the row starts no message. */
  static int textColumn(String row) {
    int i = 0;
    while (i < row.length() && row.charAt(i) == ' ') {
      i++;
    }
    if (i == 0 && (row.startsWith("● ") || row.startsWith("✕ "))) {
      // ✕: Gemini CLI's error message, wrapped the same way
      return 2;
    }
    if (i == 1 && (row.startsWith("✗ ", 1) || row.startsWith("● ", 1))) {
      return 3;
    }
    if (i == 2 && row.startsWith("⎿", i)) {
      int j = i + 1;
      while (j < row.length() && (row.charAt(j) == ' ' || row.charAt(j) == '\u00a0')) {
        j++;
      }
      return j < row.length() ? j : -1;
    }
    return -1;
  }

  /** True when {@code row} continues a message whose text starts at {@code col}. */
  static boolean continues(String row, int col) {
    if (row.length() <= col) {
      return false;
    }
    for (int i = 0; i < col; i++) {
      if (row.charAt(i) != ' ') {
        return false;
      }
    }
    return row.charAt(col) != ' ';
  }

  /** The head row of the message that {@code row} continues, or {@code row} itself. */
  static int head(ScreenView screen, int row) {
    for (int r = row - 1; r >= Math.max(0, row - LogicalLines.MAX_ROWS); r--) {
      String above = screen.row(r);
      int col = textColumn(above);
      if (col >= 0) {
        for (int k = r + 1; k <= row; k++) {
          if (!continues(screen.row(k), col)) {
            return row;
          }
        }
        return r;
      }
      if (above.isBlank()) {
        return row;
      }
    }
    return row;
  }

  /** Last row of the message starting at {@code start} (the row itself when it continues on none). */
  static int endRow(ScreenView screen, int start, int end) {
    int col = textColumn(screen.row(start));
    if (col < 0) {
      return start;
    }
    int r = start;
    while (r + 1 < end && r - start < LogicalLines.MAX_ROWS && continues(screen.row(r + 1), col)) {
      r++;
    }
    return r;
  }

  /** {@code text} (the head's line) with the message's continuation rows joined by a space. */
  static String join(ScreenView screen, int start, int end, String text) {
    int last = endRow(screen, start, end);
    if (last == start) {
      return text;
    }
    StringBuilder sb = new StringBuilder(text.stripTrailing());
    for (int r = start + 1; r <= last; r++) {
      sb.append(' ').append(screen.row(r).strip());
    }
    return sb.toString();
  }
}
