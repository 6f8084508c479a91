package dev.agentdesk.terminal.vt.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * Resizing a screen buffer. On the primary screen a change of width reflows: rows joined by
 * soft wraps are put back together into logical lines and wrapped again at the new width, so a
 * long line that was wrapped at 80 columns reads as one line at 120. The alternate screen is
 * cut or padded instead (full-screen programs redraw on SIGWINCH anyway).
 *
 * <p>Fitting the result into the new height follows xterm.js: blank rows below the cursor are
 * dropped first; if there are still too many rows, rows leave through the top (into the durable
 * log on the primary screen). New rows are added blank at the bottom; rows already in the log
 * are never pulled back, since the log is append-only.
 */
final class Reflow {
  private Reflow() {}

  /** Resizes both screens of {@code s} and moves the cursor and the saved cursors along. */
  static void resizeScreen(Screen s, int newCols, int newRows) {
    if (newCols < 1 || newRows < 1) {
      throw new IllegalArgumentException("terminal size must be at least 1x1, got " + newCols + "x" + newRows);
    }
    if (newCols == s.cols && newRows == s.rows) {
      return;
    }
    boolean altActive = s.active == s.alt;
    int[] cursor = {s.x, s.y};
    Grid.SavedCursor primarySaved = s.primary.saved;
    // Saved rows on the primary screen count from xterm.js's scrollback base (see Screen).
    int[] savedPos = {primarySaved.x, (int) Math.max(0, primarySaved.y - s.historyRows)};
    resize(s.primary, newCols, newRows, altActive ? savedPos : cursor, true);
    resize(s.alt, newCols, newRows, altActive ? cursor : new int[] {s.alt.saved.x, s.alt.saved.y}, false);
    if (altActive) {
      primarySaved.x = Math.min(savedPos[0], newCols - 1);
      primarySaved.y = (int) (Math.min(savedPos[1], newRows - 1) + s.historyRows);
    }
    s.cols = newCols;
    s.rows = newRows;
    s.x = Screen.clamp(cursor[0], 0, newCols - 1);
    s.y = Screen.clamp(cursor[1], 0, newRows - 1);
    s.wrapPending = false;
    s.primary.markAllDirty();
    s.alt.markAllDirty();
  }

  /** Resizes {@code g}; {@code cursor} ({x, y}) is the position to keep track of, updated in place. */
  static void resize(Grid g, int newCols, int newRows, int[] cursor, boolean reflow) {
    List<Line> out;
    int cursorRow;
    if (newCols != g.cols && reflow) {
      out = new ArrayList<>(Math.max(newRows, g.rows));
      cursorRow = rewrap(g, newCols, cursor, out);
    } else {
      out = new ArrayList<>(g.rows);
      for (Line l : g.lines) {
        if (newCols != g.cols) {
          l.resize(newCols);
        }
        out.add(l);
      }
      cursorRow = Math.min(cursor[1], g.rows - 1);
    }
    // Too tall: drop blank rows below the cursor, then let rows leave through the top.
    while (out.size() > newRows && out.size() - 1 > cursorRow && isBlank(out.get(out.size() - 1))) {
      out.remove(out.size() - 1);
    }
    int excess = out.size() - newRows;
    if (excess > 0) {
      for (int i = 0; i < excess; i++) {
        if (g.sink != null) {
          g.sink.scrolledOff(out.get(i));
        }
      }
      out = new ArrayList<>(out.subList(excess, out.size()));
      cursorRow -= excess;
    }
    while (out.size() < newRows) {
      out.add(new Line(newCols));
    }
    boolean[] tabs = Screen.defaultTabs(newCols);
    System.arraycopy(g.tabStops, 0, tabs, 0, Math.min(g.cols, newCols));
    g.tabStops = tabs;
    g.lines = out.toArray(new Line[0]);
    g.cols = newCols;
    g.rows = newRows;
    g.dirty = new boolean[newRows];
    g.marginTop = 0;
    g.marginBottom = newRows - 1;
    cursor[1] = Math.max(0, cursorRow);
    cursor[0] = Math.min(cursor[0], newCols - 1);
  }

  private static boolean isBlank(Line l) {
    return l.usedLength() == 0 && !l.wrapped;
  }

  /**
   * Rewraps every logical line of {@code g} at {@code newCols} into {@code out}; returns the row
   * of the cursor in {@code out} and stores its new column in {@code cursor[0]}.
   */
  private static int rewrap(Grid g, int newCols, int[] cursor, List<Line> out) {
    int cursorRow = 0;
    int start = 0;
    while (start < g.rows) {
      int end = start + 1;
      while (end < g.rows && g.lines[end].wrapped) {
        end++;
      }
      // Rows [start, end) form one logical line. Gather its cells.
      Cells cells = new Cells();
      int cursorCell = -1;
      for (int r = start; r < end; r++) {
        Line l = g.lines[r];
        boolean last = r == end - 1;
        int len = last ? l.usedLength() : l.cols();
        if (!last && len > 0 && l.cps[len - 1] == Line.EMPTY && g.lines[r + 1].cps.length > 0
            && g.lines[r + 1].cps.length > 1 && g.lines[r + 1].cps[1] == Line.WIDE_TAIL) {
          len--; // the empty cell a wide char left behind when it wrapped early is not content
        }
        if (r == cursor[1]) {
          cursorCell = cells.size + cursor[0];
          if (last) {
            len = Math.max(len, Math.min(cursor[0], l.cols()));
          }
        }
        cells.add(l, len);
      }
      // Lay the cells out at the new width.
      Line row = new Line(newCols);
      int col = 0;
      boolean placedCursor = false;
      for (int i = 0; i < cells.size; i++) {
        int cp = cells.cps[i];
        if (cp == Line.WIDE_TAIL) {
          if (i == cursorCell) {
            cursorRow = out.size();
            cursor[0] = Math.max(0, col - 1);
            placedCursor = true;
          }
          continue;
        }
        int w = (i + 1 < cells.size && cells.cps[i + 1] == Line.WIDE_TAIL) ? 2 : 1;
        if (col + w > newCols) {
          out.add(row);
          row = new Line(newCols);
          row.wrapped = true;
          col = 0;
        }
        if (i == cursorCell) {
          cursorRow = out.size();
          cursor[0] = col;
          placedCursor = true;
        }
        if (w == 2 && newCols < 2) {
          continue; // cannot show a wide char in one column
        }
        row.cps[col] = cp;
        row.styles[col] = cells.styles[i];
        if (cells.clusters[i] != null) {
          if (row.clusters == null) {
            row.clusters = new String[newCols];
          }
          row.clusters[col] = cells.clusters[i];
        }
        if (w == 2) {
          row.cps[col + 1] = Line.WIDE_TAIL;
          row.styles[col + 1] = cells.styles[i];
        }
        col += w;
        row.used = col;
      }
      out.add(row);
      if (cursorCell >= 0 && !placedCursor) {
        // The cursor sits past the content: same distance past it, on the last row.
        cursorRow = out.size() - 1;
        cursor[0] = Math.min(col + (cursorCell - cells.size), newCols - 1);
      }
      start = end;
    }
    // The first row of the screen may continue a row already in the log; keep that fact.
    if (!out.isEmpty() && g.lines[0].wrapped) {
      out.get(0).wrapped = true;
    }
    return cursorRow;
  }

  /** Growable cell arrays for one logical line. */
  private static final class Cells {
    int[] cps = new int[256];
    long[] styles = new long[256];
    String[] clusters = new String[256];
    int size;

    void add(Line l, int len) {
      while (size + len > cps.length) {
        int n = cps.length * 2;
        cps = java.util.Arrays.copyOf(cps, n);
        styles = java.util.Arrays.copyOf(styles, n);
        clusters = java.util.Arrays.copyOf(clusters, n);
      }
      System.arraycopy(l.cps, 0, cps, size, len);
      System.arraycopy(l.styles, 0, styles, size, len);
      if (l.clusters != null) {
        System.arraycopy(l.clusters, 0, clusters, size, len);
      }
      size += len;
    }
  }
}
