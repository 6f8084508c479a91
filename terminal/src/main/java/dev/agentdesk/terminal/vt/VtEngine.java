package dev.agentdesk.terminal.vt;

import dev.agentdesk.terminal.vt.internal.DurableLog;
import dev.agentdesk.terminal.vt.internal.ScreenAccess;
import dev.agentdesk.terminal.vt.internal.VtParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An xterm-compatible terminal emulator without a display: feed it the bytes a program writes to
 * its terminal and read back the screen. {@link #feed} returns the rows of the active screen whose
 * text changed; primary-screen rows that scroll off the top go to a bounded durable log.
 *
 * <p>Never throws on any byte stream. Not thread-safe: one thread feeds it, or callers lock.
 * See docs/vt-engine.md for the supported sequences and how they compare with xterm.js.
 */
public final class VtEngine {
  /** Durable log capacity unless given: rows kept after they scroll off the primary screen. */
  public static final int DEFAULT_LOG_CAPACITY = 10_000;
  /**
   * While a program holds synchronized output (DECSET 2026) changed rows are held back, but
   * never for more than this many bytes, so a program that forgets to end its frame cannot
   * hide its output.
   */
  public static final int MAX_SYNC_BYTES = 4 * 1024 * 1024;

  private final DurableLog log;
  private final ScreenAccess screen;
  private final VtParser parser;
  private final List<OscListener> oscListeners = new CopyOnWriteArrayList<>();
  /** Text each row had when last reported, to report only real changes. */
  private String[] reported;
  private long syncBytes;

  /** A {@code cols}×{@code rows} terminal with a {@value #DEFAULT_LOG_CAPACITY}-row durable log. */
  public VtEngine(int cols, int rows) {
    this(cols, rows, DEFAULT_LOG_CAPACITY);
  }

  /**
   * @throws IllegalArgumentException when a size is below 1 or the capacity is negative
   */
  public VtEngine(int cols, int rows, int logCapacity) {
    log = new DurableLog(logCapacity);
    screen = new ScreenAccess(cols, rows, log, this::dispatchOsc);
    parser = new VtParser(screen.handler());
    reported = blank(rows);
  }

  private static String[] blank(int rows) {
    String[] r = new String[rows];
    java.util.Arrays.fill(r, "");
    return r;
  }

  private void dispatchOsc(int code, String payload) {
    for (OscListener l : oscListeners) {
      l.onOsc(code, payload);
    }
  }

  /** Processes all of {@code bytes}; see {@link #feed(byte[], int, int)}. */
  public List<ChangedRow> feed(byte[] bytes) {
    return feed(bytes, 0, bytes.length);
  }

  /**
   * Processes {@code buf[off..off+len)}. Sequences (and UTF-8 characters) cut at the end of a chunk
   * are completed by the next call.
   *
   * @return the rows of the active screen whose text differs from what was last reported, in row
   *     order; empty while synchronized output (DECSET 2026) holds the frame back
   */
  public List<ChangedRow> feed(byte[] buf, int off, int len) {
    Objects.checkFromIndexSize(off, len, buf.length);
    parser.feed(buf, off, len);
    if (screen.syncOutput()) {
      syncBytes += len;
      if (syncBytes < MAX_SYNC_BYTES) {
        return List.of();
      }
    }
    syncBytes = 0;
    return collectChanges();
  }

  /**
   * Processes {@code buf[off..off+len)} like {@link #feed(byte[], int, int)} but reports nothing:
   * for a reader that wants only the screen at the end (a renderer of a whole stream), it skips
   * turning changed rows into text on every chunk, and allocates nothing per chunk. The rows stay
   * marked, so a later {@link #feed} reports every change since the last report.
   */
  public void feedWithoutChanges(byte[] buf, int off, int len) {
    Objects.checkFromIndexSize(off, len, buf.length);
    parser.feed(buf, off, len);
  }

  private List<ChangedRow> collectChanges() {
    List<ChangedRow> changes = null;
    boolean[] dirty = screen.dirtyRows();
    for (int r = 0; r < dirty.length; r++) {
      if (!dirty[r]) {
        continue;
      }
      dirty[r] = false;
      String text = screen.rowText(r);
      if (!text.equals(reported[r])) {
        reported[r] = text;
        if (changes == null) {
          changes = new ArrayList<>();
        }
        changes.add(new ChangedRow(r, text));
      }
    }
    return changes == null ? List.of() : changes;
  }

  /**
   * Resizes the terminal (primary-screen soft-wrapped lines reflow; rows pushed out through the
   * top go to the durable log).
   *
   * @return the rows whose text changed
   * @throws IllegalArgumentException when a size is below 1
   */
  public List<ChangedRow> resize(int cols, int rows) {
    screen.resize(cols, rows);
    String[] next = blank(rows);
    System.arraycopy(reported, 0, next, 0, Math.min(rows, reported.length));
    reported = next;
    return collectChanges();
  }

  /** The visible screen now. */
  public ScreenSnapshot snapshot() {
    return screen.snapshot();
  }

  /**
   * The bytes that bring a fresh xterm-compatible terminal of this size (another engine, the
   * browser's xterm.js) to the state this one is in: the durable log's last rows as scrollback
   * (plain text; as many as xterm.js would hold), both screens with their styles and soft wraps,
   * scroll margins, tab stops, saved cursors, character sets, modes (cursor keys, keypad,
   * autowrap, cursor visibility, bracketed paste, mouse tracking and encoding, insert, newline,
   * origin, synchronized output), the title, the cursor and the pen; last the bytes of a sequence
   * the input so far left unfinished. Feeding them to a fresh {@code new VtEngine(cols(), rows())}
   * and then the rest of the stream gives the screen that feeding the whole stream here gives, so
   * a viewer that joins late can be handed this, then the live bytes. What cannot be carried is
   * listed in docs/vt-engine.md.
   */
  public byte[] repaint() {
    return screen.repaint(parser.pendingBytes());
  }

  /** The visible rows with per-cell style. */
  public List<List<StyledCell>> styledScreen() {
    List<List<StyledCell>> out = new ArrayList<>(screen.rows());
    for (int r = 0; r < screen.rows(); r++) {
      out.add(screen.styledRow(r));
    }
    return out;
  }

  /** One visible row with per-cell style. */
  public List<StyledCell> styledRow(int row) {
    Objects.checkIndex(row, screen.rows());
    return screen.styledRow(row);
  }

  public TerminalModes modes() {
    return screen.modes();
  }

  public int cols() {
    return screen.cols();
  }

  public int rows() {
    return screen.rows();
  }

  public String title() {
    return screen.title();
  }

  /** Every log row still held, oldest first. */
  public List<LogLine> log() {
    return logSince(log.first());
  }

  /** Log rows with sequence number ≥ {@code seq} still held, oldest first. */
  public List<LogLine> logSince(long seq) {
    long from = Math.max(seq, log.first());
    List<LogLine> out = new ArrayList<>((int) Math.max(0, log.end() - from));
    for (long s = from; s < log.end(); s++) {
      out.add(new LogLine(s, log.text(s), log.wrapped(s)));
    }
    return out;
  }

  /** Sequence number the next log row will get: the number of rows ever logged. */
  public long logEnd() {
    return log.end();
  }

  /** Rows the log keeps at most. */
  public int logCapacity() {
    return log.capacity();
  }

  public void addOscListener(OscListener listener) {
    oscListeners.add(Objects.requireNonNull(listener, "listener"));
  }

  public void removeOscListener(OscListener listener) {
    oscListeners.remove(listener);
  }
}
