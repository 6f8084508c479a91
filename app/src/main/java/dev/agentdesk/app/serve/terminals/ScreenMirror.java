package dev.agentdesk.app.serve.terminals;

import dev.agentdesk.terminal.vt.CellStyle;
import dev.agentdesk.terminal.vt.ScreenSnapshot;
import dev.agentdesk.terminal.vt.StyledCell;
import dev.agentdesk.terminal.vt.VtEngine;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The screen the browser sees: a VT engine fed with the terminal's output, and the rows last
 * sent. {@link #changes()} compares the styled rows with what was sent, so a change of colour
 * alone (a menu highlight moving) reaches the browser too, and bursts of output between two
 * flushes cost one message. Thread-safe.
 */
public final class ScreenMirror {
  /** Log lines kept for snapshots; the PTY session keeps its own durable log. */
  static final int LOG_LINES = 2_000;

  private final VtEngine engine;
  private List<List<ScreenFrame.Span>> sent;
  private ScreenFrame.Cursor sentCursor;
  private boolean dirty;

  public ScreenMirror(int cols, int rows) {
    this.engine = new VtEngine(cols, rows, LOG_LINES);
    this.sent = newRows(rows);
  }

  /** A baseline of blank rows: what a client shows before its first frame. */
  private static List<List<ScreenFrame.Span>> newRows(int rows) {
    return new ArrayList<>(java.util.Collections.nCopies(rows, List.of()));
  }

  public synchronized void feed(byte[] chunk) {
    engine.feed(chunk);
    dirty = true;
  }

  public synchronized void resize(int cols, int rows) {
    engine.resize(cols, rows);
    sent = newRows(rows);
    sentCursor = null;
    dirty = true;
  }

  public synchronized int cols() {
    return engine.cols();
  }

  public synchronized int rows() {
    return engine.rows();
  }

  /** The whole screen now, as a {@code screen} message. Does not move the sent baseline. */
  public synchronized ScreenFrame full() {
    List<ScreenFrame.Row> rows = new ArrayList<>(engine.rows());
    for (int r = 0; r < engine.rows(); r++) {
      rows.add(new ScreenFrame.Row(r, spans(engine.styledRow(r))));
    }
    return new ScreenFrame("screen", engine.cols(), engine.rows(), rows, cursor(), engine.modes().altScreen());
  }

  /**
   * The rows (and cursor) that differ from the last call, as a {@code rows} message, or null when
   * nothing changed or the program is in the middle of a synchronized frame.
   */
  public synchronized ScreenFrame changes() {
    if (!dirty || engine.modes().synchronizedOutput()) {
      return null;
    }
    dirty = false;
    List<ScreenFrame.Row> changed = new ArrayList<>();
    for (int r = 0; r < engine.rows(); r++) {
      List<ScreenFrame.Span> now = spans(engine.styledRow(r));
      if (!now.equals(sent.get(r))) {
        sent.set(r, now);
        changed.add(new ScreenFrame.Row(r, now));
      }
    }
    ScreenFrame.Cursor cursor = cursor();
    if (changed.isEmpty() && Objects.equals(cursor, sentCursor)) {
      return null;
    }
    sentCursor = cursor;
    return new ScreenFrame("rows", engine.cols(), engine.rows(), changed, cursor, engine.modes().altScreen());
  }

  public synchronized boolean applicationCursorKeys() {
    return engine.modes().applicationCursorKeys();
  }

  public synchronized ScreenSnapshot snapshot() {
    return engine.snapshot();
  }

  /** The log lines that scrolled off the primary screen (at most {@link #LOG_LINES}), oldest first. */
  public synchronized List<String> log() {
    return engine.log().stream().map(l -> l.text()).toList();
  }

  private ScreenFrame.Cursor cursor() {
    ScreenSnapshot s = engine.snapshot();
    return new ScreenFrame.Cursor(s.cursorRow(), s.cursorCol(), s.cursorVisible());
  }

  /** Runs of equally styled cells; trailing default-styled blanks are dropped. */
  static List<ScreenFrame.Span> spans(List<StyledCell> cells) {
    int end = cells.size();
    while (end > 0 && isBlank(cells.get(end - 1))) {
      end--;
    }
    List<ScreenFrame.Span> out = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    CellStyle current = null;
    int col = 0;
    for (int k = 0; k < end; k++) {
      StyledCell c = cells.get(k);
      if (current != null && !current.equals(c.style())) {
        flush(out, text, current);
      }
      current = c.style();
      // The engine lists every cell; this only guards the column count against a gap.
      for (; col < c.col(); col++) {
        text.append(' ');
      }
      text.append(c.style().invisible() ? " ".repeat(Math.max(1, c.width())) : c.text());
      col += Math.max(1, c.width());
    }
    if (current != null) {
      flush(out, text, current);
    }
    return out;
  }

  private static boolean isBlank(StyledCell c) {
    return " ".equals(c.text()) && c.style().background().equals(CellStyle.DEFAULT.background())
        && !c.style().inverse() && !c.style().underline();
  }

  private static void flush(List<ScreenFrame.Span> out, StringBuilder text, CellStyle s) {
    if (text.length() == 0) {
      return;
    }
    out.add(new ScreenFrame.Span(text.toString(), Palette.css(s.foreground()), Palette.css(s.background()),
        s.bold(), s.dim(), s.italic(), s.underline(), s.strikethrough(), s.inverse()));
    text.setLength(0);
  }

  @Override
  public synchronized String toString() {
    return "ScreenMirror" + Arrays.toString(new int[] {engine.cols(), engine.rows()});
  }
}
