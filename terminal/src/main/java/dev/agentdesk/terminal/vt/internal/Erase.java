package dev.agentdesk.terminal.vt.internal;

/**
 * ED and EL, and their DEC selective forms DECSED and DECSEL, which leave the cells written under
 * DECSCA protection alone (as xterm does; ED and EL erase protected cells too).
 */
final class Erase {
  private Erase() {}

  /**
   * EL, or DECSEL when {@code selective}. In the pending-wrap state the cursor counts as one past
   * the last column (xterm.js does the same), so "erase to the end" right after a full row erases
   * nothing and the wrap stays pending.
   */
  static void inLine(Screen s, int mode, boolean selective) {
    Line line = s.active.lines[s.y];
    int cx = s.wrapPending ? s.cols : s.x;
    switch (mode) {
      case 0 -> {
        erase(s, line, cx, s.cols, selective);
        if (cx == 0) {
          line.wrapped = false;
        }
      }
      case 1 -> erase(s, line, 0, cx + 1, selective);
      case 2 -> {
        erase(s, line, 0, s.cols, selective);
        line.wrapped = false;
      }
      default -> {
        return;
      }
    }
    s.active.dirty[s.y] = true;
  }

  /** ED, or DECSED when {@code selective}. Mode 3 (scrollback) leaves the durable log alone; see docs/vt-engine.md. */
  static void inDisplay(Screen s, int mode, boolean selective) {
    Grid g = s.active;
    switch (mode) {
      case 0 -> {
        inLine(s, 0, selective);
        for (int r = s.y + 1; r < s.rows; r++) {
          clearRow(s, g.lines[r], selective);
          g.dirty[r] = true;
        }
      }
      case 1 -> {
        for (int r = 0; r < s.y; r++) {
          clearRow(s, g.lines[r], selective);
          g.dirty[r] = true;
        }
        inLine(s, 1, selective);
        g.lines[s.y].wrapped = false;
        if ((s.wrapPending || s.x == s.cols - 1) && s.y + 1 < s.rows) {
          g.lines[s.y + 1].wrapped = false; // the whole row it continued is gone
        }
      }
      case 2 -> {
        for (int r = 0; r < s.rows; r++) {
          clearRow(s, g.lines[r], selective);
        }
        g.markAllDirty();
      }
      case 3 -> {
        if (g == s.primary && !selective) {
          s.historyRows = 0; // xterm.js's scrollback is gone, so saved rows are now screen rows
        }
      }
      default -> {
        // Other modes are not defined.
      }
    }
  }

  private static void erase(Screen s, Line line, int from, int to, boolean selective) {
    long fill = Style.eraseFill(s.style);
    if (selective) {
      line.eraseUnprotected(from, to, fill);
    } else {
      line.erase(from, to, fill);
    }
  }

  private static void clearRow(Screen s, Line line, boolean selective) {
    if (selective) {
      line.eraseUnprotected(0, s.cols, Style.eraseFill(s.style));
      line.wrapped = false;
    } else {
      line.clear(Style.eraseFill(s.style));
    }
  }
}
