package dev.agentdesk.terminal.vt.internal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes the bytes that bring a fresh xterm-compatible terminal of the same size to a screen's
 * state: the scrollback (durable-log rows, plain text), the primary screen, the alternate screen
 * when it is active, each with its styles, soft wraps, scroll margins, tab stops and saved cursor;
 * then the character sets, modes, title, the cursor (a pending wrap and REP's last character
 * included) and the pen. Read by a browser's xterm.js before the live bytes of the same stream.
 *
 * <p>Not reproduced, because the screen model does not keep them or no sequence can set them:
 * colours of scrollback rows (the log keeps text); a saved cursor whose row is no longer on the
 * screen, which xterm.js keeps relative to its scrollback (ED 3 then moves it); an active character set that differs from
 * its designation after DECRC while the alternate screen is active. Everything else is checked by feeding the bytes into a fresh
 * engine ({@code RepaintTest}).
 */
final class Repaint {
  private static final String ESC = "\u001b";
  private static final String CSI = ESC + "[";

  private final Screen s;
  private final StringBuilder out = new StringBuilder(4096);
  /** The receiving terminal's current SGR state. */
  private long pen;
  /** The receiving terminal's cursor column while rows are written. */
  private int bx;

  private Repaint(Screen s) {
    this.s = s;
  }

  static byte[] of(Screen s, DurableLog log, byte[] pending) {
    Repaint r = new Repaint(s);
    r.write(log);
    byte[] text = r.out.toString().getBytes(StandardCharsets.UTF_8);
    byte[] all = Arrays.copyOf(text, text.length + pending.length);
    System.arraycopy(pending, 0, all, text.length, pending.length);
    return all;
  }

  private void write(DurableLog log) {
    out.append(ESC).append('c'); // RIS: a terminal that was used before starts from nothing too
    // As many log rows as xterm.js would hold as scrollback: ED 3 empties it, SU adds nothing.
    long held = log.end() - log.first();
    long k = Math.min(s.historyRows, held);
    long from = log.end() - k;
    boolean joined = false;
    for (long seq = from; seq < log.end(); seq++) {
      boolean nextWrapped = seq + 1 < log.end() ? log.wrapped(seq + 1) : s.primary.lines[0].wrapped;
      if (seq > from && !joined) {
        newline();
      }
      logRow(log.text(seq), joined, nextWrapped);
      joined = nextWrapped;
    }
    rows(s.primary, k > 0, joined, held > 0 ? log.text(log.end() - 1) : "");
    gridState(s.primary, s.historyRows);
    if (s.active == s.alt) {
      sgr(0); // the alternate screen is cleared with the pen's background
      out.append(CSI).append("?1047h").append(CSI).append('H');
      bx = 0;
      rows(s.alt, false, false, "");
      gridState(s.alt, 0);
    }
    finalState();
  }

  /** The rows of one screen, top to bottom, each on its own line unless the next one wraps. */
  private void rows(Grid g, boolean afterLog, boolean joinedToLog, String lead) {
    boolean joined = joinedToLog;
    if (g.lines[0].wrapped && !joined) {
      // The top row continues one that is gone (scrolled by SU, or off the alternate screen):
      // a row written before it and scrolled away makes the wrap.
      logRow(lead, false, true);
      joined = true;
    }
    for (int r = 0; r < s.rows; r++) {
      boolean nextWrapped = r + 1 < s.rows && g.lines[r + 1].wrapped;
      if ((r > 0 || afterLog) && !joined) {
        newline();
      } else if (joined) {
        sgr(0); // the wrap may scroll, and a row scrolled in is cleared with the pen's background
      }
      row(g.lines[r], joined, nextWrapped);
      joined = nextWrapped;
    }
  }

  private void newline() {
    sgr(0); // a row scrolled in is cleared with the pen's background
    out.append("\r\n");
    bx = 0;
  }

  /** A log row; padded to the width when the next row continues it, so that it wraps there. */
  private void logRow(String text, boolean continued, boolean nextWrapped) {
    sgr(0);
    // A row that continues the one above must hold at least one character to make the wrap.
    out.append(text.isEmpty() && continued && !nextWrapped ? " " : text);
    if (nextWrapped) {
      int width = 0;
      for (int i = 0; i < text.length(); ) {
        int cp = text.codePointAt(i);
        width += CharWidth.of(cp);
        i += Character.charCount(cp);
      }
      out.append(" ".repeat(Math.max(0, s.cols - width)));
    }
  }

  /**
   * One screen row. Trailing default blanks are left out unless the next row continues this one
   * (then every cell is written so that the next character wraps). Erased cells that carry a
   * background colour are erased again (ECH) rather than written as spaces.
   */
  private void row(Line line, boolean continued, boolean full) {
    int n = line.cols();
    // A row that continues the one above must write its first cell: that makes the wrap.
    int end = full ? n : Math.max(contentEnd(line), continued ? 1 : 0);
    bx = 0;
    int c = 0;
    while (c < end) {
      int cp = line.cps[c];
      long st = line.styles[c];
      if (cp == Line.WIDE_TAIL) {
        c++; // written with its left half (an orphaned half is blank)
        continue;
      }
      if (continued && c == 0 && Style.eraseFill(st) != 0) {
        // The character that makes the wrap may scroll, and the row scrolled in is cleared with
        // the pen's background: write it once without colour, then again over itself.
        sgr(0);
        out.append(cp == Line.EMPTY || cp == Line.WIDE_TAIL ? " " : line.cellText(c)).append('\r');
      }
      if (cp == Line.EMPTY && st != 0 && st == Style.eraseFill(st)) {
        int run = c;
        while (run < end && line.cps[run] == Line.EMPTY && line.styles[run] == st) {
          run++;
        }
        if (!full || run < end) {
          moveTo(c);
          sgr(st);
          // ECH, not EL: EL from the first column would end the row's soft wrap.
          out.append(CSI).append(run - c).append('X');
          if (run < n) {
            out.append(CSI).append(run - c).append('C'); // ECH leaves the cursor where it was
            bx = run;
          }
          c = run;
          continue;
        }
      }
      if ((cp == Line.EMPTY || cp == ' ') && st == 0 && !full && !(continued && c == 0)) {
        c++; // a default blank: skipped over, the receiver's row is blank there
        continue;
      }
      moveTo(c);
      sgr(st);
      out.append(cp == Line.EMPTY ? " " : line.cellText(c));
      int width = c + 1 < n && line.cps[c + 1] == Line.WIDE_TAIL ? 2 : 1;
      bx = c + width;
      c += width;
    }
  }

  /** Index past the last cell that is not a default blank. */
  private static int contentEnd(Line line) {
    int i = line.cols();
    while (i > 0) {
      int cp = line.cps[i - 1];
      if (line.styles[i - 1] != 0 || (cp != Line.EMPTY && cp != ' ')) {
        return i;
      }
      i--;
    }
    return 0;
  }

  /** Moves the receiver's cursor right to {@code col} on the row being written. */
  private void moveTo(int col) {
    int gap = col - bx;
    if (gap <= 0) {
      return;
    }
    if (gap <= 4 && pen == 0) {
      out.append(" ".repeat(gap));
    } else {
      out.append(CSI).append(gap).append('C');
    }
    bx = col;
  }

  /** Tab stops, scroll margins and the saved cursor of the screen just written. */
  private void gridState(Grid g, long historyBase) {
    if (!Arrays.equals(g.tabStops, Screen.defaultTabs(s.cols))) {
      out.append(CSI).append("3g");
      for (int c = 0; c < s.cols; c++) {
        if (g.tabStops[c]) {
          out.append(CSI).append(c + 1).append('G').append(ESC).append('H');
        }
      }
    }
    if (g.marginTop != 0 || g.marginBottom != s.rows - 1) {
      out.append(CSI).append(g.marginTop + 1).append(';').append(g.marginBottom + 1).append('r');
    }
    Grid.SavedCursor saved = g.saved;
    if (saved.present) {
      int row = (int) Math.max(0, Math.min(s.rows - 1, saved.y - historyBase));
      int col = Math.min(saved.x, s.cols - 1);
      if (saved.originMode) {
        out.append(CSI).append("?6h"); // before the move: DECOM homes the cursor
      }
      int cupRow = saved.originMode ? Math.max(0, row - g.marginTop) : row;
      if (saved.wrapStillPending(g) && col == s.cols - 1) {
        // A pending wrap is reached by writing the last column: write what is there again.
        Line line = g.lines[row];
        int cell = col > 0 && line.cps[col] == Line.WIDE_TAIL ? col - 1 : col;
        cup(cupRow, cell);
        sgr(line.styles[cell]);
        out.append(line.cps[cell] == Line.EMPTY ? " " : line.cellText(cell));
      } else {
        cup(cupRow, col);
      }
      sgr(saved.style);
      if (saved.charset != Screen.CHARSET_ASCII) {
        out.append(ESC).append('(').append(designator(saved.charset));
      }
      out.append(ESC).append('7');
      if (saved.charset != Screen.CHARSET_ASCII) {
        out.append(ESC).append("(B");
      }
      if (saved.originMode) {
        out.append(CSI).append("?6l");
      }
    }
  }

  private void finalState() {
    for (int g = 0; g < 4; g++) {
      if (s.charsets[g] != Screen.CHARSET_ASCII) {
        out.append(ESC).append("()*+".charAt(g)).append(designator(s.charsets[g]));
      }
    }
    if (s.gl == 1) {
      out.append('\u000e'); // SO
    }
    if (charsetApart()) {
      activeCharsetApartFromItsDesignation();
    }
    mode("?1", s.appCursorKeys);
    if (s.appKeypad) {
      out.append(ESC).append('=');
    }
    mode("?7", s.autowrap);
    mode("?25", s.cursorVisible);
    mode("?2004", s.bracketedPaste);
    if (s.mouseTracking != 0) {
      out.append(CSI).append('?').append(s.mouseTracking).append('h');
    }
    mode("?1006", s.sgrMouse);
    mode("20", s.newlineMode);
    mode("?2026", s.syncOutput);
    if (!s.title.isEmpty()) {
      out.append(ESC).append("]2;").append(s.title.replaceAll("[\\x00-\\x1f\\x7f-\\x9f]", "")).append('\u0007');
    }
    if (s.originMode) {
      out.append(CSI).append("?6h");
    }
    mode("4", s.insertMode);
    cursor();
  }

  private boolean charsetApart() {
    return s.charset != s.charsets[s.gl] && s.active == s.primary;
  }

  /**
   * After DECRC the set in use can differ from the one designated; only DECRC makes that state,
   * so it is made the same way, with the alternate screen's saved-cursor slot (the primary's is
   * taken): designate the set in use, save, designate the real one, restore, leave. The cursor
   * and pen are set again afterwards. Left out while the alternate screen is active, whose slot
   * a program may still restore from.
   */
  private void activeCharsetApartFromItsDesignation() {
    char g = "()*+".charAt(s.gl);
    out.append(CSI).append("?1047h");
    out.append(ESC).append(g).append(designator(s.charset)).append(ESC).append('7');
    out.append(ESC).append(g).append(designator(s.charsets[s.gl])).append(ESC).append('8');
    out.append(CSI).append("?1047l");
  }

  /** Writes {@code CSI name h/l} when the mode differs from its reset value. */
  private void mode(String name, boolean on) {
    boolean byDefault = name.equals("?7") || name.equals("?25");
    if (on != byDefault) {
      out.append(CSI).append(name).append(on ? 'h' : 'l');
    }
  }

  /**
   * The cursor and the pen. A pending wrap exists only after a character was written in the last
   * column, and REP repeats only a character written just before: both are made the same way, by
   * writing that cell again.
   */
  private void cursor() {
    Line line = s.active.lines[s.y];
    int cell = -1;
    if (s.wrapPending) {
      cell = s.cols - 1;
    } else if (s.lastPrinted >= 0 && s.x > 0) {
      cell = s.x - 1;
    }
    if (cell > 0 && line.cps[cell] == Line.WIDE_TAIL) {
      cell--;
    }
    boolean repeatable = cell >= 0 && s.lastPrinted >= 0 && line.cps[cell] == s.lastPrinted;
    if (cell >= 0 && (s.wrapPending || repeatable)) {
      cup(s.y - (s.originMode ? s.active.marginTop : 0), cell);
      sgr(line.styles[cell]);
      // A character written since the last designation was mapped already; an older one, under
      // a set designated later, would be mapped again: write it with ASCII in GL for a moment.
      int base = line.cps[cell];
      int gl = s.charsets[s.gl];
      // (Not when the set in use was made apart from its designation: designating ends that.)
      boolean remap = base > 0 && base < 0x7f && Charsets.map(gl, base) != base && !charsetApart();
      char g = "()*+".charAt(s.gl);
      if (remap) {
        out.append(ESC).append(g).append('B');
      }
      if (s.insertMode) {
        // In insert mode the write pushes the row right: take the cell out first, so the row
        // comes back as it was.
        out.append(CSI).append(cell + 1 < s.cols && line.cps[cell + 1] == Line.WIDE_TAIL ? 2 : 1).append('P');
      }
      out.append(base == Line.EMPTY ? " " : line.cellText(cell));
      if (remap) {
        out.append(ESC).append(g).append(designator(gl));
      }
      if (!repeatable || pen != s.style) {
        forceSgr(s.style); // also ends the receiver's REP memory, which ours does not have
      }
    } else {
      cup(s.y - (s.originMode ? s.active.marginTop : 0), s.x);
      forceSgr(s.style);
    }
  }

  private void cup(int row, int col) {
    out.append(CSI).append(row + 1).append(';').append(col + 1).append('H');
    bx = col;
  }

  private void sgr(long style) {
    if (style != pen) {
      forceSgr(style);
    }
  }

  private void forceSgr(long style) {
    out.append(CSI).append('0');
    int f = Style.flags(style);
    flag(f, Style.BOLD, "1");
    flag(f, Style.DIM, "2");
    flag(f, Style.ITALIC, "3");
    flag(f, Style.UNDERLINE, "4");
    flag(f, Style.BLINK, "5");
    flag(f, Style.INVERSE, "7");
    flag(f, Style.INVISIBLE, "8");
    flag(f, Style.STRIKETHROUGH, "9");
    flag(f, Style.OVERLINE, "53");
    color(Style.fg(style), 30, 90, 38);
    color(Style.bg(style), 40, 100, 48);
    out.append('m');
    if (Style.isProtected(style) != Style.isProtected(pen)) {
      out.append(CSI).append(Style.isProtected(style) ? '1' : '0').append("\"q"); // DECSCA; SGR 0 keeps it
    }
    pen = style;
  }

  private void flag(int flags, int flag, String code) {
    if ((flags & flag) != 0) {
      out.append(';').append(code);
    }
  }

  private void color(int c, int base, int brightBase, int extended) {
    int v = Style.value(c);
    switch (Style.kind(c)) {
      case Style.INDEXED -> {
        if (v < 8) {
          out.append(';').append(base + v);
        } else if (v < 16) {
          out.append(';').append(brightBase + v - 8);
        } else {
          out.append(';').append(extended).append(";5;").append(v);
        }
      }
      case Style.RGB -> out.append(';').append(extended).append(";2;").append((v >> 16) & 0xff).append(';')
          .append((v >> 8) & 0xff).append(';').append(v & 0xff);
      default -> {
        // the default colour: SGR 0 already set it
      }
    }
  }

  private static char designator(int charset) {
    return switch (charset) {
      case Screen.CHARSET_DEC_GRAPHICS -> '0';
      case Screen.CHARSET_UK -> 'A';
      default -> 'B';
    };
  }
}
