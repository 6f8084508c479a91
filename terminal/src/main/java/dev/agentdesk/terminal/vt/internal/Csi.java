package dev.agentdesk.terminal.vt.internal;

/** Interprets CSI sequences against a {@link Screen}. Unknown sequences are ignored. */
final class Csi {
  private Csi() {}

  static void dispatch(Screen s, CsiParams p, int f) {
    int prefix = p.prefix();
    int inter = p.intermediates();
    if (prefix == '?' && inter == 0) {
      if (f == 'h' || f == 'l') {
        for (int i = 0; i < Math.max(1, p.count()); i++) {
          Modes.setPrivate(s, p.raw(i), f == 'h');
        }
      } else if (f == 'J') {
        Erase.inDisplay(s, p.raw(0), true); // DECSED: DECSCA-protected cells stay
      } else if (f == 'K') {
        Erase.inLine(s, p.raw(0), true); // DECSEL
      }
      return;
    }
    if (prefix != 0) {
      return; // '>' and '=' queries (secondary DA, key modifiers, …) have no screen effect
    }
    if (inter == '!' && f == 'p') {
      Modes.softReset(s);
      return;
    }
    if (inter != 0) {
      intermediate(s, p, inter, f);
      return;
    }
    Grid g = s.active;
    int n = p.get(0, 1);
    switch (f) {
      case '@' -> {
        restrictCursor(s);
        g.lines[s.y].insertCells(s.x, n, Style.eraseFill(s.style));
        g.dirty[s.y] = true;
      }
      case 'A' -> s.cursorUp(n);
      case 'B' -> s.cursorDown(n);
      case 'e' -> s.cursorTo(s.x, rowForAbsolute(s) + n); // VPR ignores the scroll margins
      case 'C', 'a' -> s.cursorRight(n);
      case 'D' -> s.cursorLeft(n);
      case 'E' -> {
        s.cursorDown(n);
        s.x = 0;
      }
      case 'F' -> {
        s.cursorUp(n);
        s.x = 0;
      }
      case 'G', '`' -> s.cursorTo(n - 1, rowForAbsolute(s));
      case 'H', 'f' -> s.cursorTo(p.get(1, 1) - 1, p.get(0, 1) - 1);
      case 'I' -> {
        if (!s.wrapPending) {
          s.tab(n);
        }
      }
      case 'J' -> Erase.inDisplay(s, p.raw(0), false);
      case 'K' -> Erase.inLine(s, p.raw(0), false);
      case 'L' -> insertLines(s, n);
      case 'M' -> deleteLines(s, n);
      case 'P' -> {
        restrictCursor(s);
        g.lines[s.y].deleteCells(s.x, n, Style.eraseFill(s.style));
        g.dirty[s.y] = true;
      }
      case 'S' -> s.scrollRegionUp(n);
      case 'T' -> {
        if (p.count() <= 1) {
          g.scrollDown(g.marginTop, g.marginBottom, n, 0);
        }
      }
      case 'X' -> {
        restrictCursor(s);
        g.lines[s.y].erase(s.x, s.x + Math.min(n, s.cols), Style.eraseFill(s.style));
        g.dirty[s.y] = true;
      }
      case 'Z' -> {
        if (!s.wrapPending) {
          s.backTab(n);
        }
      }
      case 'b' -> s.repeatLast(n); // n is at most CsiParams.MAX_VALUE, so the work is bounded
      case 'd' -> s.cursorTo(s.x, n - 1);
      case 'g' -> {
        int mode = p.raw(0);
        if (mode == 0) {
          s.active.tabStops[s.x] = false;
        } else if (mode == 3) {
          java.util.Arrays.fill(s.active.tabStops, false);
        }
      }
      case 'h', 'l' -> {
        for (int i = 0; i < Math.max(1, p.count()); i++) {
          Modes.setAnsi(s, p.raw(i), f == 'h');
        }
      }
      case 'm' -> Sgr.apply(s, p);
      case 'r' -> setScrollRegion(s, p);
      case 's' -> s.saveCursor();
      case 'u' -> s.restoreCursor();
      default -> {
        // Reports (DA, DSR, window ops) need a reply channel this engine does not have.
      }
    }
  }

  /**
   * Sequences with one intermediate byte that change the screen: SL/SR shift and DECIC/DECDC
   * insert or delete columns, every row of the scroll region at once; DECSCA sets the protection
   * later characters carry. Cursor style (SP q), DECRQM ($p) and the like have no screen effect.
   */
  private static void intermediate(Screen s, CsiParams p, int inter, int f) {
    int n = p.get(0, 1);
    if (inter == ' ' && f == '@') {
      shiftColumns(s, 0, n, false); // SL
    } else if (inter == ' ' && f == 'A') {
      shiftColumns(s, 0, n, true); // SR
    } else if (inter == '\'' && f == '}') {
      shiftColumns(s, s.x, n, true); // DECIC
    } else if (inter == '\'' && f == '~') {
      shiftColumns(s, s.x, n, false); // DECDC
    } else if (inter == '"' && f == 'q') {
      // DECSCA: 1 protects; 0 and 2 do not.
      s.style = p.raw(0) == 1 ? s.style | Style.PROTECTED_BIT : s.style & ~Style.PROTECTED_BIT;
    }
  }

  /**
   * Inserts ({@code right}) or deletes {@code n} columns at {@code col} in every row between the
   * scroll margins, as xterm does; ignored when the cursor is outside the margins. The cursor
   * stays where it is.
   */
  private static void shiftColumns(Screen s, int col, int n, boolean right) {
    Grid g = s.active;
    if (s.y < g.marginTop || s.y > g.marginBottom) {
      return;
    }
    long fill = Style.eraseFill(s.style);
    for (int r = g.marginTop; r <= g.marginBottom; r++) {
      if (right) {
        g.lines[r].insertCells(col, n, fill);
      } else {
        g.lines[r].deleteCells(col, n, fill);
      }
      g.dirty[r] = true;
    }
  }

  /** CHA/HPA keep the row; in origin mode the row must be given relative to the region. */
  private static int rowForAbsolute(Screen s) {
    return s.originMode ? s.y - s.active.marginTop : s.y;
  }

  /** A pending wrap is resolved to "on the last column" before editing operations. */
  private static void restrictCursor(Screen s) {
    s.wrapPending = false;
  }

  private static void insertLines(Screen s, int n) {
    Grid g = s.active;
    restrictCursor(s);
    if (s.y < g.marginTop || s.y > g.marginBottom) {
      return;
    }
    g.scrollDown(s.y, g.marginBottom, n, Style.eraseFill(s.style));
    s.x = 0;
  }

  private static void deleteLines(Screen s, int n) {
    Grid g = s.active;
    restrictCursor(s);
    if (s.y < g.marginTop || s.y > g.marginBottom) {
      return;
    }
    g.scrollUpWithin(s.y, g.marginBottom, n, Style.eraseFill(s.style));
    s.x = 0;
  }

  private static void setScrollRegion(Screen s, CsiParams p) {
    int top = p.get(0, 1);
    int bottom = p.raw(1);
    if (p.count() < 2 || bottom == 0 || bottom > s.rows) {
      bottom = s.rows;
    }
    if (bottom > top) {
      s.active.marginTop = top - 1;
      s.active.marginBottom = bottom - 1;
      s.cursorTo(0, 0);
    }
  }
}
