package dev.agentdesk.terminal.vt.internal;

import java.util.Arrays;

/**
 * The terminal model the parser drives: two screen buffers (primary with a durable log,
 * alternate without), the cursor, the current style, modes, tab stops and character sets. Printing
 * and C0/ESC handling live here; CSI sequences are interpreted by {@link Csi}, SGR by {@link Sgr},
 * resizing by {@link Reflow}. Not thread-safe: one owner feeds it.
 */
public final class Screen implements ParserHandler {
  /** Receives OSC strings other than the window title. */
  public interface OscSink {
    void osc(int code, String payload);
  }

  static final int CHARSET_ASCII = 0;
  static final int CHARSET_DEC_GRAPHICS = 1;
  static final int CHARSET_UK = 2;

  int cols;
  int rows;
  final Grid primary;
  Grid alt;
  Grid active;
  final DurableLog log;
  OscSink oscSink;

  // Cursor. wrapPending: the last column was just written; the next printable wraps first.
  int x;
  int y;
  boolean wrapPending;
  long style;

  // Modes.
  boolean autowrap = true;
  boolean originMode;
  boolean insertMode;
  boolean newlineMode;
  boolean cursorVisible = true;
  boolean bracketedPaste;
  boolean appCursorKeys;
  boolean appKeypad;
  boolean syncOutput;
  int mouseTracking; // 0 off, else the DECSET number that enabled it (9, 1000, 1002, 1003)
  boolean sgrMouse;

  final int[] charsets = new int[4];
  int gl; // which of G0..G3 is invoked into GL (SI/SO)
  /**
   * The charset printing uses. Normally charsets[gl]; kept apart because DECRC restores only this
   * (as xterm.js does), so it can differ from the designations until the next SI/SO/designation.
   */
  int charset;
  String title = "";
  /** The last printed code point while printing is uninterrupted (for REP), else -1. */
  int lastPrinted = -1;
  private boolean justScrolled;

  public Screen(int cols, int rows, DurableLog log) {
    if (cols < 1 || rows < 1) {
      throw new IllegalArgumentException("terminal size must be at least 1x1, got " + cols + "x" + rows);
    }
    this.cols = cols;
    this.rows = rows;
    this.log = log;
    primary = new Grid(cols, rows, this::toLog);
    alt = new Grid(cols, rows, null);
    active = primary;
  }

  static boolean[] defaultTabs(int cols) {
    boolean[] t = new boolean[cols];
    for (int i = 8; i < cols; i += 8) {
      t[i] = true;
    }
    return t;
  }

  /**
   * Mirrors xterm.js's scrollback length (its "ybase"): saved cursor rows are stored relative to
   * it. Grows with every row scrolled off the primary screen up to the log capacity, and drops to
   * 0 on ED 3 — unlike the durable log, which ED 3 does not touch.
   */
  long historyRows;

  private long historyBase() {
    return active == primary ? historyRows : 0;
  }

  /** Set while SU runs: its rows go to the durable log but not into xterm.js's scrollback. */
  private boolean scrollingUpExplicitly;

  private void toLog(Line line) {
    if (historyRows < log.capacity() && !scrollingUpExplicitly) {
      historyRows++;
    }
    log.append(line);
  }

  // ---------------------------------------------------------------- printing

  @Override
  public void printAscii(byte[] buf, int from, int to) {
    if (charset != CHARSET_ASCII || insertMode) {
      for (int i = from; i < to; i++) {
        print(buf[i]);
      }
      return;
    }
    lastPrinted = buf[to - 1];
    Grid g = active;
    long st = style;
    int i = from;
    while (i < to) {
      if (wrapPending) {
        if (autowrap) {
          wrapLine();
        } else {
          if (g.lines[y].cps[cols - 1] != Line.WIDE_TAIL) { // see print()
            g.lines[y].put(cols - 1, buf[to - 1], 1, st); // without autowrap the last char wins
            g.dirty[y] = true;
          }
          return;
        }
      }
      Line line = g.lines[y];
      int n = Math.min(cols - x, to - i);
      int[] cps = line.cps;
      long[] styles = line.styles;
      if (cps[x] == Line.WIDE_TAIL && x > 0) {
        cps[x - 1] = Line.EMPTY;
      }
      int end = x + n;
      if (end < cols && cps[end] == Line.WIDE_TAIL) {
        cps[end] = Line.EMPTY;
      }
      for (int k = 0; k < n; k++) {
        cps[x + k] = buf[i + k];
        styles[x + k] = st;
      }
      if (line.clusters != null) {
        Arrays.fill(line.clusters, x, end, null);
      }
      if (end > line.used) {
        line.used = end;
      }
      g.dirty[y] = true;
      i += n;
      if (end >= cols) {
        x = cols - 1;
        wrapPending = true;
      } else {
        x = end;
      }
    }
  }

  @Override
  public void print(int cp) {
    if (cp < 0x7f && charset != CHARSET_ASCII) {
      cp = Charsets.map(charset, cp);
    }
    int width = CharWidth.of(cp);
    Grid g = active;
    if (width == 0) {
      combine(cp);
      return;
    }
    lastPrinted = cp;
    if (wrapPending || x + width > cols) {
      if (autowrap) {
        wrapLine();
      } else {
        boolean wasPending = wrapPending;
        x = cols - 1;
        wrapPending = false;
        if (width == 2) {
          return; // xterm.js drops a wide char that does not fit when autowrap is off
        }
        if (wasPending && !insertMode && g.lines[y].cps[x] == Line.WIDE_TAIL) {
          // xterm.js writes such a char into the hidden right half of the wide char, where it
          // never shows; the wide char stays. Keep the screen the same as the reference.
          wrapPending = true;
          return;
        }
      }
    }
    if (width > cols) {
      return; // a wide char cannot be shown on a one-column terminal
    }
    Line line = g.lines[y];
    if (insertMode) {
      line.insertCells(x, width, Style.eraseFill(style));
    }
    line.put(x, cp, width, style);
    g.dirty[y] = true;
    x += width;
    if (x >= cols) {
      x = cols - 1;
      wrapPending = true;
    }
  }

  private void combine(int mark) {
    int col = wrapPending ? x : x - 1;
    Line line = active.lines[y];
    if (col < 0) {
      return; // nothing to combine with at the start of a row
    }
    if (line.cps[col] == Line.WIDE_TAIL && col > 0) {
      col--;
    }
    line.combine(col, mark);
    active.dirty[y] = true;
  }

  /** Autowrap: continue on the next row, which is marked as soft-wrapped. */
  private void wrapLine() {
    if (!wrapPending && x < cols) {
      // A wide char that does not fit leaves the rest of the row blank (as xterm.js does).
      active.lines[y].erase(x, cols, style);
    }
    wrapPending = false;
    x = 0;
    index();
    active.lines[y].wrapped = true;
    active.dirty[y] = true;
  }

  // ---------------------------------------------------------------- C0 / C1 controls

  @Override
  public void execute(int c) {
    lastPrinted = -1;
    switch (c) {
      case 0x08 -> {
        wrapPending = false;
        if (x > 0) {
          x--;
        }
      }
      case 0x09 -> {
        if (!wrapPending) {
          tab(1); // like xterm.js, a tab in the pending-wrap state does nothing
        }
      }
      case 0x0a, 0x0b, 0x0c -> {
        lineFeed();
        if (active.lines[y] != null && !justScrolled) {
          active.lines[y].wrapped = false; // a row reached by a real newline starts a new line
        }
        if (newlineMode) {
          x = 0;
        }
      }
      case 0x0d -> {
        x = 0;
        wrapPending = false;
      }
      case 0x0e -> {
        gl = 1;
        charset = charsets[1];
      }
      case 0x0f -> {
        gl = 0;
        charset = charsets[0];
      }
      case 0x84 -> lineFeed();
      case 0x85 -> {
        lineFeed();
        x = 0;
      }
      case 0x88 -> active.tabStops[x] = true;
      case 0x8d -> reverseIndex();
      default -> {
        // BEL and the other controls have no effect on the screen.
      }
    }
  }

  void lineFeed() {
    wrapPending = false;
    index();
  }

  /** Moves down one row, scrolling the region when the cursor is on its bottom margin. */
  void index() {
    Grid g = active;
    justScrolled = false;
    if (y == g.marginBottom) {
      g.scrollUpOne(g.marginTop, g.marginBottom, Style.eraseFill(style));
      justScrolled = true;
    } else if (y < rows - 1) {
      y++;
    } else {
      justScrolled = true; // stuck on the last row below the region: the row is not a new line
    }
  }

  /** SU: scrolls the region up; rows leaving the top of the screen go to the log. */
  void scrollRegionUp(int n) {
    Grid g = active;
    scrollingUpExplicitly = true;
    g.scrollUp(g.marginTop, g.marginBottom, Math.min(n, g.marginBottom - g.marginTop + 1), Style.eraseFill(style));
    scrollingUpExplicitly = false;
  }

  /** REP: prints the last printed character again, when printing was not interrupted. */
  void repeatLast(int n) {
    int cp = lastPrinted;
    if (cp < 0) {
      return;
    }
    for (int i = 0; i < n; i++) {
      print(cp);
    }
  }

  void reverseIndex() {
    wrapPending = false;
    Grid g = active;
    if (y == g.marginTop) {
      g.scrollDown(g.marginTop, g.marginBottom, 1, Style.eraseFill(style));
    } else if (y > 0) {
      y--;
    }
  }

  void tab(int count) {
    wrapPending = false;
    while (count-- > 0 && x < cols - 1) {
      x++;
      while (x < cols - 1 && !active.tabStops[x]) {
        x++;
      }
    }
  }

  void backTab(int count) {
    wrapPending = false;
    while (count-- > 0 && x > 0) {
      x--;
      while (x > 0 && !active.tabStops[x]) {
        x--;
      }
    }
  }

  // ---------------------------------------------------------------- ESC sequences

  @Override
  public void escDispatch(int intermediates, int f) {
    lastPrinted = -1;
    if (intermediates == 0) {
      switch (f) {
        case '7' -> saveCursor();
        case '8' -> restoreCursor();
        case 'D' -> lineFeed();
        case 'E' -> {
          lineFeed();
          x = 0;
        }
        case 'H' -> active.tabStops[x] = true;
        case 'M' -> reverseIndex();
        case 'c' -> Modes.fullReset(this);
        case '=' -> appKeypad = true;
        case '>' -> appKeypad = false;
        default -> {
          // Other ESC finals (ST, 7/8-bit control selection, …) have no screen effect.
        }
      }
      return;
    }
    int first = intermediates & 0xff;
    if (intermediates <= 0xff && first >= '(' && first <= '+') {
      int g = first - '(';
      charsets[g] = Charsets.designate(f);
      if (g == gl) {
        charset = charsets[g];
      }
    } else if (intermediates == '#' && f == '8') {
      Modes.alignmentTest(this);
    }
  }

  void saveCursor() {
    Grid.SavedCursor s = active.saved;
    s.present = true;
    s.x = x;
    s.y = (int) Math.min(Integer.MAX_VALUE, y + historyBase()); // absolute, like xterm.js
    s.style = style;
    s.originMode = originMode;
    s.charset = charset;
    s.wrapPending = wrapPending;
    s.scrolls = active.scrolls;
  }

  void restoreCursor() {
    Grid.SavedCursor s = active.saved;
    if (!s.present) {
      x = 0;
      y = 0;
      style = 0;
      charset = CHARSET_ASCII;
      wrapPending = false;
      return;
    }
    x = Math.min(s.x, cols - 1);
    // Content that scrolled since the save takes the saved row up with it (xterm.js behaviour).
    y = (int) Math.max(0, Math.min(s.y - historyBase(), rows - 1));
    style = s.style;
    originMode = s.originMode;
    charset = s.charset;
    // The pending wrap comes back with the cursor (xterm, Alacritty), but only while it still
    // means "the row here was just filled": not once rows scrolled under the saved position (the
    // row there is another line then; xterm's own reference screens keep the cursor on the last
    // column), nor after a resize moved the last column. See docs/vt-engine.md.
    wrapPending = s.wrapStillPending(active) && s.x == cols - 1;
  }

  // ---------------------------------------------------------------- CSI and OSC

  @Override
  public void csiDispatch(CsiParams p, int finalByte) {
    Csi.dispatch(this, p, finalByte);
    lastPrinted = -1; // as in xterm.js, REP repeats only a character printed right before it
  }

  @Override
  public void oscDispatch(int code, String payload) {
    lastPrinted = -1;
    if (code == 0 || code == 2) {
      title = payload;
    }
    if (code != 2 && oscSink != null) {
      oscSink.osc(code, payload);
    }
  }

  // ---------------------------------------------------------------- operations used by Csi

  /** Absolute cursor move; row is relative to the scroll region in origin mode. */
  void cursorTo(int col, int row) {
    wrapPending = false;
    x = clamp(col, 0, cols - 1);
    if (originMode) {
      y = clamp(row + active.marginTop, active.marginTop, active.marginBottom);
    } else {
      y = clamp(row, 0, rows - 1);
    }
  }

  /** Vertical relative move that stops at the scroll margins when it starts inside them. */
  void cursorUp(int n) {
    wrapPending = false;
    int top = y >= active.marginTop ? active.marginTop : 0;
    y = Math.max(top, y - n);
  }

  void cursorDown(int n) {
    wrapPending = false;
    int bottom = y <= active.marginBottom ? active.marginBottom : rows - 1;
    y = Math.min(bottom, y + n);
  }

  void cursorRight(int n) {
    wrapPending = false;
    x = Math.min(cols - 1, x + n);
  }

  void cursorLeft(int n) {
    wrapPending = false;
    x = Math.max(0, x - n);
  }

  void switchToAlt(boolean clear) {
    if (active == alt) {
      return;
    }
    active = alt;
    if (clear) {
      alt.clearAll(Style.eraseFill(style));
    }
    alt.markAllDirty(); // the cursor, a pending wrap included, carries over (xterm.js)
  }

  void switchToPrimary() {
    if (active == primary) {
      return;
    }
    alt.clearAll(0);
    // Leaving the alternate screen resets it whole, margins and tab stops included (xterm.js).
    alt.marginTop = 0;
    alt.marginBottom = rows - 1;
    alt.tabStops = defaultTabs(cols);
    active = primary;
    primary.markAllDirty();
  }

  static int clamp(int v, int lo, int hi) {
    return v < lo ? lo : Math.min(v, hi);
  }

  /** Resizes both screens; the primary screen reflows soft-wrapped lines (see {@link Reflow}). */
  public void resize(int newCols, int newRows) {
    Reflow.resizeScreen(this, newCols, newRows);
  }
}
