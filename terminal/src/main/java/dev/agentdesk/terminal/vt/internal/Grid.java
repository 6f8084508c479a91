package dev.agentdesk.terminal.vt.internal;

import java.util.Arrays;

/**
 * One screen buffer (primary or alternate): the visible rows, the scroll region, the saved cursor
 * and per-row dirty flags. Scrolling moves row objects, never cells; a row that leaves the top of
 * a region starting at row 0 is handed to the log sink first (primary screen only).
 */
final class Grid {
  /** Receives rows that scroll off the top of the primary screen. */
  interface ScrollSink {
    void scrolledOff(Line line);
  }

  final ScrollSink sink;
  int cols;
  int rows;
  Line[] lines;
  boolean[] dirty;
  int marginTop;
  int marginBottom;
  final SavedCursor saved = new SavedCursor();
  /** Times rows moved up or down in this buffer: tells DECRC whether the saved row still holds the same line. */
  long scrolls;
  /** Tab stops; per buffer, as in xterm.js. */
  boolean[] tabStops;

  Grid(int cols, int rows, ScrollSink sink) {
    this.cols = cols;
    this.rows = rows;
    this.sink = sink;
    lines = new Line[rows];
    for (int r = 0; r < rows; r++) {
      lines[r] = new Line(cols);
    }
    dirty = new boolean[rows];
    marginTop = 0;
    marginBottom = rows - 1;
    tabStops = Screen.defaultTabs(cols);
  }

  Line line(int row) {
    return lines[row];
  }

  void markDirty(int row) {
    dirty[row] = true;
  }

  void markDirty(int from, int toInclusive) {
    for (int r = from; r <= toInclusive; r++) {
      dirty[r] = true;
    }
  }

  void markAllDirty() {
    Arrays.fill(dirty, true);
  }

  void clearAll(long fill) {
    for (Line l : lines) {
      l.clear(fill);
    }
    markAllDirty();
  }

  /**
   * Scrolls rows {@code [top, bottom]} up by {@code n}: top rows leave, blank rows enter below.
   * Rows leaving row 0 go to the log: this is content scrolling away, not deletion.
   */
  void scrollUp(int top, int bottom, int n, long fill) {
    shiftUp(top, bottom, n, fill, top == 0);
  }

  /** Deletes {@code n} rows at {@code top} (DL): the same shift, but deleted rows are not logged. */
  void scrollUpWithin(int top, int bottom, int n, long fill) {
    shiftUp(top, bottom, n, fill, false);
  }

  private void shiftUp(int top, int bottom, int n, long fill, boolean log) {
    int height = bottom - top + 1;
    n = Math.min(n, height);
    if (n <= 0) {
      return;
    }
    Line[] out = new Line[n];
    for (int i = 0; i < n; i++) {
      Line l = lines[top + i];
      if (log && sink != null) {
        sink.scrolledOff(l);
      }
      out[i] = l;
    }
    scrolls++;
    System.arraycopy(lines, top + n, lines, top, height - n);
    for (int i = 0; i < n; i++) {
      Line l = out[i];
      l.clear(fill);
      lines[bottom - n + 1 + i] = l;
    }
    markDirty(top, bottom);
  }

  /** One-row scroll up with no allocation: the path every line feed at the bottom takes. */
  void scrollUpOne(int top, int bottom, long fill) {
    Line l = lines[top];
    if (top == 0 && sink != null) {
      sink.scrolledOff(l);
    }
    scrolls++;
    System.arraycopy(lines, top + 1, lines, top, bottom - top);
    l.clear(fill);
    lines[bottom] = l;
    markDirty(top, bottom);
  }

  /** Scrolls rows {@code [top, bottom]} down by {@code n}: bottom rows are lost, blank rows enter on top. */
  void scrollDown(int top, int bottom, int n, long fill) {
    int height = bottom - top + 1;
    n = Math.min(n, height);
    if (n <= 0) {
      return;
    }
    Line[] out = new Line[n];
    scrolls++;
    System.arraycopy(lines, bottom - n + 1, out, 0, n);
    System.arraycopy(lines, top, lines, top + n, height - n);
    for (int i = 0; i < n; i++) {
      out[i].clear(fill);
      lines[top + i] = out[i];
    }
    markDirty(top, bottom);
  }

  /** The cursor state DECSC saves (per screen buffer, as xterm does). */
  static final class SavedCursor {
    boolean present;
    int x;
    int y;
    long style;
    boolean originMode;
    int charset;
    /** The last column had just been written: DECRC brings the pending wrap back (xterm). */
    boolean wrapPending;
    /** {@link Grid#scrolls} at the save. */
    long scrolls;

    /** The saved pending wrap still applies: no row moved since, so the row it filled is still there. */
    boolean wrapStillPending(Grid g) {
      return wrapPending && scrolls == g.scrolls;
    }
  }
}
