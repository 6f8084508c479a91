package dev.agentdesk.terminal.vt.internal;

/** ED and EL (and their DEC selective forms, which behave the same here: no cell is protected). */
final class Erase {
  private Erase() {}

  /**
   * EL. In the pending-wrap state the cursor counts as one past the last column (xterm.js does
   * the same), so "erase to the end" right after a full row erases nothing and the wrap stays
   * pending.
   */
  static void inLine(Screen s, int mode) {
    Line line = s.active.lines[s.y];
    long fill = Style.eraseFill(s.style);
    int cx = s.wrapPending ? s.cols : s.x;
    switch (mode) {
      case 0 -> {
        line.erase(cx, s.cols, fill);
        if (cx == 0) {
          line.wrapped = false;
        }
      }
      case 1 -> line.erase(0, cx + 1, fill);
      case 2 -> {
        line.erase(0, s.cols, fill);
        line.wrapped = false;
      }
      default -> {
        return;
      }
    }
    s.active.dirty[s.y] = true;
  }

  /** ED. Mode 3 (scrollback) leaves the durable log alone; see docs/vt-engine.md. */
  static void inDisplay(Screen s, int mode) {
    Grid g = s.active;
    long fill = Style.eraseFill(s.style);
    switch (mode) {
      case 0 -> {
        inLine(s, 0);
        for (int r = s.y + 1; r < s.rows; r++) {
          g.lines[r].clear(fill);
          g.dirty[r] = true;
        }
      }
      case 1 -> {
        for (int r = 0; r < s.y; r++) {
          g.lines[r].clear(fill);
          g.dirty[r] = true;
        }
        inLine(s, 1);
        g.lines[s.y].wrapped = false;
        if ((s.wrapPending || s.x == s.cols - 1) && s.y + 1 < s.rows) {
          g.lines[s.y + 1].wrapped = false; // the whole row it continued is gone
        }
      }
      case 2 -> {
        for (int r = 0; r < s.rows; r++) {
          g.lines[r].clear(fill);
        }
        g.markAllDirty();
      }
      case 3 -> {
        if (g == s.primary) {
          s.historyRows = 0; // xterm.js's scrollback is gone, so saved rows are now screen rows
        }
      }
      default -> {
        // Other modes are not defined.
      }
    }
  }
}
