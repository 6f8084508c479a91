package dev.agentdesk.terminal.vt.internal;

import dev.agentdesk.terminal.vt.CellStyle;
import dev.agentdesk.terminal.vt.Color;
import dev.agentdesk.terminal.vt.ScreenSnapshot;
import dev.agentdesk.terminal.vt.StyledCell;
import dev.agentdesk.terminal.vt.TerminalModes;
import java.util.ArrayList;
import java.util.List;

/** The bridge from {@code VtEngine} to the screen model: reads it into the public value types. */
public final class ScreenAccess {
  private final Screen screen;
  private byte[] scratch = new byte[256];

  public ScreenAccess(int cols, int rows, DurableLog log, Screen.OscSink osc) {
    screen = new Screen(cols, rows, log);
    screen.oscSink = osc;
  }

  public ParserHandler handler() {
    return screen;
  }

  /** See {@code VtEngine.repaint()}; {@code pending} is what the parser holds unfinished. */
  public byte[] repaint(byte[] pending) {
    return Repaint.of(screen, screen.log, pending);
  }

  public boolean syncOutput() {
    return screen.syncOutput;
  }

  /** The active screen's dirty flags, live: the caller clears what it has read. */
  public boolean[] dirtyRows() {
    return screen.active.dirty;
  }

  public String rowText(int row) {
    Line line = screen.active.lines[row];
    if (scratch.length < line.cols()) {
      scratch = new byte[line.cols()];
    }
    return line.text(scratch);
  }

  public void resize(int cols, int rows) {
    screen.resize(cols, rows);
  }

  public int cols() {
    return screen.cols;
  }

  public int rows() {
    return screen.rows;
  }

  public String title() {
    return screen.title;
  }

  public ScreenSnapshot snapshot() {
    Screen s = screen;
    List<String> lines = new ArrayList<>(s.rows);
    List<Boolean> wrapped = new ArrayList<>(s.rows);
    for (int r = 0; r < s.rows; r++) {
      lines.add(rowText(r));
      wrapped.add(s.active.lines[r].wrapped);
    }
    return new ScreenSnapshot(s.cols, s.rows, lines, wrapped, s.y, s.x, s.wrapPending, s.cursorVisible,
        s.active == s.alt, s.title);
  }

  public TerminalModes modes() {
    Screen s = screen;
    return new TerminalModes(s.autowrap, s.originMode, s.insertMode, s.newlineMode, s.cursorVisible,
        s.bracketedPaste, s.appCursorKeys, s.appKeypad, s.syncOutput, s.mouseTracking, s.sgrMouse,
        s.active == s.alt);
  }

  public List<StyledCell> styledRow(int row) {
    Line line = screen.active.lines[row];
    List<StyledCell> out = new ArrayList<>(line.cols());
    long lastStyle = Long.MIN_VALUE;
    CellStyle last = null;
    for (int c = 0; c < line.cols(); c++) {
      int cp = line.cps[c];
      if (cp == Line.WIDE_TAIL) {
        continue;
      }
      long st = line.styles[c];
      if (last == null || st != lastStyle) {
        last = toCellStyle(st);
        lastStyle = st;
      }
      int width = c + 1 < line.cols() && line.cps[c + 1] == Line.WIDE_TAIL ? 2 : 1;
      out.add(new StyledCell(c, line.cellText(c), width, last));
    }
    return out;
  }

  static CellStyle toCellStyle(long st) {
    if (st == 0) {
      return CellStyle.DEFAULT;
    }
    int f = Style.flags(st);
    return new CellStyle(color(Style.fg(st)), color(Style.bg(st)), (f & Style.BOLD) != 0, (f & Style.DIM) != 0,
        (f & Style.ITALIC) != 0, (f & Style.UNDERLINE) != 0, (f & Style.BLINK) != 0, (f & Style.INVERSE) != 0,
        (f & Style.INVISIBLE) != 0, (f & Style.STRIKETHROUGH) != 0, (f & Style.OVERLINE) != 0);
  }

  private static Color color(int c) {
    int v = Style.value(c);
    return switch (Style.kind(c)) {
      case Style.INDEXED -> new Color.Indexed(v);
      case Style.RGB -> new Color.Rgb((v >> 16) & 0xff, (v >> 8) & 0xff, v & 0xff);
      default -> Color.DEFAULT;
    };
  }
}
