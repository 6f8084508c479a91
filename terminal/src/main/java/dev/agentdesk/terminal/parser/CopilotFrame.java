package dev.agentdesk.terminal.parser;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * Copilot CLI (1.0.102) draws two frames the rules must not read as text: a scrollbar {@code ┃}
 * in the last column of every row of its scrolling history, and a light box {@code │ … │} around
 * its dialogs (folder trust, "Do you want to run this command?"). Its rows are read without them:
 * a dialog's options then start their rows as any menu's do, and a message that wraps at the
 * scrollbar ends at its last word, not at the bar.
 */
final class CopilotFrame {
  private CopilotFrame() {}

  /** {@code screen} with the scrollbar and the outer dialog border taken off each row. */
  static ScreenView plain(ScreenView screen) {
    List<String> rows = new ArrayList<>(screen.rowCount());
    boolean changed = false;
    for (int i = 0; i < screen.rowCount(); i++) {
      String row = screen.row(i);
      String p = plain(row, screen.cols());
      changed |= !p.equals(row);
      rows.add(p);
    }
    if (!changed) {
      return screen;
    }
    BitSet wrapped = new BitSet();
    for (int i = 0; i < screen.rowCount(); i++) {
      wrapped.set(i, screen.isWrapped(i));
    }
    return new ScreenView(rows, wrapped, screen.cols(), screen.cursorRow(), screen.cursorCol(), screen.altScreen());
  }

  /** The changed rows with the text of the plain screen. */
  static List<RowChange> plain(List<RowChange> changed, ScreenView plain) {
    List<RowChange> out = new ArrayList<>(changed.size());
    for (RowChange c : changed) {
      out.add(c.row() < plain.rowCount() ? new RowChange(c.row(), plain.row(c.row())) : c);
    }
    return out;
  }

  static String plain(String row, int cols) {
    String t = row.stripTrailing();
    // The scrollbar: a heavy bar alone in the last column.
    if (t.length() == cols && t.endsWith("┃") && (t.length() == 1 || t.charAt(t.length() - 2) == ' ')) {
      t = t.substring(0, t.length() - 1).stripTrailing();
    }
    // A dialog row "│ text … │": the text, where the dialog's own indent starts.
    if (t.length() >= 2 && t.charAt(0) == '│' && t.charAt(t.length() - 1) == '│') {
      String inner = t.substring(1, t.length() - 1);
      return inner.startsWith(" ") ? inner.substring(1).stripTrailing() : inner.stripTrailing();
    }
    return t.length() == row.length() ? row : t;
  }
}
