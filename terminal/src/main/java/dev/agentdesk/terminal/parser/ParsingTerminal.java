package dev.agentdesk.terminal.parser;

import dev.agentdesk.terminal.osc.OscScanner;
import dev.agentdesk.terminal.vt.ChangedRow;
import dev.agentdesk.terminal.vt.ScreenSnapshot;
import dev.agentdesk.terminal.vt.VtEngine;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * The whole output path of one session: raw OSC scan → VT engine → chrome cutoff → parser. The
 * OSC scan runs on the bytes before the engine consumes them, because the engine swallows the
 * escape sequences (and a rendered snapshot can lose one-shot notifications).
 *
 * <p>Not thread-safe: one session's reader drives it.
 */
public final class ParsingTerminal {
  private final OscScanner osc = new OscScanner();
  private final VtEngine engine;
  private final OutputParser parser;

  public ParsingTerminal(Agent agent, int cols, int rows, MonotonicClock clock) {
    this.engine = new VtEngine(cols, rows);
    this.parser = new OutputParser(agent, clock);
  }

  /**
   * Bytes the program wrote; returns the events they produced, in stream order: the engine is fed
   * up to the end of each OSC notification before that notification is reported, so screen events
   * from earlier bytes come first however the stream was cut into reads.
   */
  public List<ParsedEvent> output(byte[] buf, int off, int len) {
    List<OscScanner.Hit> hits = osc.scanHits(buf, off, len);
    if (hits.isEmpty()) {
      return screenEvents(buf, off, len);
    }
    List<ParsedEvent> all = new ArrayList<>();
    int from = off;
    for (OscScanner.Hit h : hits) {
      all.addAll(screenEvents(buf, from, h.end() - from));
      all.addAll(parser.onNotifications(List.of(h.notification())));
      from = h.end();
    }
    all.addAll(screenEvents(buf, from, off + len - from));
    return all;
  }

  private List<ParsedEvent> screenEvents(byte[] buf, int off, int len) {
    if (len == 0) {
      return List.of();
    }
    List<ChangedRow> changed = engine.feed(buf, off, len);
    if (changed.isEmpty() && !parser.awaitsCursorMove()) {
      return List.of();
    }
    return parser.onScreen(view(engine.snapshot()), rowChanges(changed));
  }

  /** Bytes the user sent. */
  public List<ParsedEvent> input(byte[] buf, int off, int len) {
    return parser.onInput(buf, off, len);
  }

  /** The terminal was resized. */
  public List<ParsedEvent> resize(int cols, int rows) {
    parser.onResize();
    List<ChangedRow> changed = engine.resize(cols, rows);
    return changed.isEmpty() ? List.of() : parser.onScreen(view(engine.snapshot()), rowChanges(changed));
  }

  /** Fires due timers. */
  public List<ParsedEvent> tick() {
    return parser.tick();
  }

  public OutputParser parser() {
    return parser;
  }

  public VtEngine engine() {
    return engine;
  }

  /** The engine's snapshot as the parser's screen view (soft-wrap flags moved to the wrapping row). */
  static ScreenView view(ScreenSnapshot s) {
    BitSet wraps = new BitSet(s.rows());
    List<Boolean> continues = s.wrapped();
    for (int i = 1; i < continues.size(); i++) {
      if (continues.get(i)) {
        wraps.set(i - 1);
      }
    }
    return new ScreenView(s.lines(), wraps, s.cols(), s.cursorRow(), s.cursorCol(), s.altScreen());
  }

  private static List<RowChange> rowChanges(List<ChangedRow> changed) {
    List<RowChange> out = new ArrayList<>(changed.size());
    for (ChangedRow c : changed) {
      out.add(new RowChange(c.row(), c.text()));
    }
    return out;
  }
}
