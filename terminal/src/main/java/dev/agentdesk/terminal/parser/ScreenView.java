package dev.agentdesk.terminal.parser;

import java.util.BitSet;
import java.util.List;
import java.util.Objects;

/**
 * What the parser needs of a rendered screen: the visible rows as text, which rows soft-wrap into
 * the next one, the cursor and whether the alternate screen is showing. It does not care where the
 * rows come from (the VT engine live, a replayed capture, or a rendered fixture).
 */
public final class ScreenView {
  private final List<String> rows;
  private final BitSet wrapped;
  private final int cols;
  private final int cursorRow;
  private final int cursorCol;
  private final boolean altScreen;

  /**
   * @param rows      visible rows, top to bottom, trailing blanks trimmed or not
   * @param wrapped   bit {@code i} set when row {@code i} soft-wraps into row {@code i+1}
   * @param cols      screen width in cells
   * @param cursorRow cursor row (0-based); may equal {@code rows.size()} when unknown
   * @param cursorCol cursor column (0-based)
   */
  public ScreenView(List<String> rows, BitSet wrapped, int cols, int cursorRow, int cursorCol, boolean altScreen) {
    this.rows = List.copyOf(rows);
    this.wrapped = (BitSet) Objects.requireNonNull(wrapped, "wrapped").clone();
    if (cols <= 0) {
      throw new IllegalArgumentException("cols must be positive: " + cols);
    }
    this.cols = cols;
    this.cursorRow = cursorRow;
    this.cursorCol = cursorCol;
    this.altScreen = altScreen;
  }

  /** A screen of plain text lines (no soft wraps), cursor after the last row: for rendered fixtures. */
  public static ScreenView ofLines(List<String> lines) {
    int width = 1;
    for (String l : lines) {
      width = Math.max(width, l.codePointCount(0, l.length()));
    }
    return new ScreenView(lines, new BitSet(), width, lines.size(), 0, false);
  }

  public int rowCount() {
    return rows.size();
  }

  /** Row text, or "" outside the screen. */
  public String row(int i) {
    return i >= 0 && i < rows.size() ? rows.get(i) : "";
  }

  public List<String> rows() {
    return rows;
  }

  /** True when row {@code i} soft-wraps into row {@code i+1}. */
  public boolean isWrapped(int i) {
    return wrapped.get(i);
  }

  public int cols() {
    return cols;
  }

  public int cursorRow() {
    return cursorRow;
  }

  public int cursorCol() {
    return cursorCol;
  }

  public boolean altScreen() {
    return altScreen;
  }
}
