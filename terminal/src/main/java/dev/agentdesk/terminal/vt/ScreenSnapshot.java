package dev.agentdesk.terminal.vt;

import java.util.List;

/**
 * The visible screen at one moment.
 *
 * @param cols width in cells
 * @param rows height in rows
 * @param lines each row's text, right-trimmed ({@code rows} entries)
 * @param wrapped per row: true when the row continues the row above (soft wrap)
 * @param cursorRow zero-based cursor row
 * @param cursorCol zero-based cursor column (at most {@code cols - 1}; see {@link #wrapPending})
 * @param wrapPending the last column was just written, so the next character goes to the next row
 * @param cursorVisible DECTCEM
 * @param altScreen the alternate screen is active
 * @param title the window title (OSC 0/2), "" when never set
 */
public record ScreenSnapshot(
    int cols,
    int rows,
    List<String> lines,
    List<Boolean> wrapped,
    int cursorRow,
    int cursorCol,
    boolean wrapPending,
    boolean cursorVisible,
    boolean altScreen,
    String title) {
  public ScreenSnapshot {
    lines = List.copyOf(lines);
    wrapped = List.copyOf(wrapped);
  }

  /** The visible rows joined with newlines, trailing blank rows dropped. */
  public String text() {
    int end = lines.size();
    while (end > 0 && lines.get(end - 1).isEmpty()) {
      end--;
    }
    return String.join("\n", lines.subList(0, end));
  }
}
