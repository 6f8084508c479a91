package dev.agentdesk.app.serve.terminals;

import dev.agentdesk.terminal.vt.LogLine;
import dev.agentdesk.terminal.vt.ScreenSnapshot;
import dev.agentdesk.terminal.vt.VtEngine;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The server's own VT engine for one terminal, fed with every byte the program writes, and the
 * viewers (browser sockets) that follow the same stream. It answers the REST snapshot and the
 * preview, and gives each viewer that joins a repaint of the screen so far followed by every
 * later chunk: joining, feeding and resizing take one lock, so a viewer misses no byte and sees
 * none twice, and a resize reaches it at the place in the stream where the engine resized.
 * Viewers must not block (they queue).
 */
public final class ScreenMirror {
  /** Receives one terminal's output, in order. Called under the mirror's lock. */
  public interface Viewer {
    /** The terminal is {@code cols}×{@code rows}; {@code repaint} brings a fresh one to the screen so far. */
    void start(int cols, int rows, byte[] repaint);

    /** A chunk the program wrote; the array is not changed afterwards. */
    void output(byte[] chunk);

    /** The terminal was resized here in the stream. */
    void resized(int cols, int rows);
  }

  private final VtEngine engine;
  /** Copy-on-write: a viewer closed for being too slow may detach while a chunk is handed out. */
  private final List<Viewer> viewers = new CopyOnWriteArrayList<>();

  /** Keeps as many log rows as the session's own engine, the scrollback a viewer gets. */
  public ScreenMirror(int cols, int rows) {
    this.engine = new VtEngine(cols, rows, VtEngine.DEFAULT_LOG_CAPACITY);
  }

  public synchronized void feed(byte[] chunk) {
    engine.feed(chunk);
    for (Viewer v : viewers) {
      v.output(chunk);
    }
  }

  /** Resizes the engine and tells the viewers; false (and nothing told) when the size is the same. */
  public synchronized boolean resize(int cols, int rows) {
    if (cols == engine.cols() && rows == engine.rows()) {
      return false;
    }
    engine.resize(cols, rows);
    for (Viewer v : viewers) {
      v.resized(cols, rows);
    }
    return true;
  }

  /** Starts {@code v} with a repaint of the screen now; from then on it gets every chunk. */
  public synchronized void attach(Viewer v) {
    v.start(engine.cols(), engine.rows(), engine.repaint());
    viewers.add(v);
  }

  public synchronized void detach(Viewer v) {
    viewers.remove(v);
  }

  public synchronized int viewerCount() {
    return viewers.size();
  }

  public synchronized int cols() {
    return engine.cols();
  }

  public synchronized int rows() {
    return engine.rows();
  }

  public synchronized boolean applicationCursorKeys() {
    return engine.modes().applicationCursorKeys();
  }

  public synchronized ScreenSnapshot snapshot() {
    return engine.snapshot();
  }

  /** The rows that scrolled off the primary screen (the durable log), oldest first. */
  public synchronized List<String> log() {
    return engine.log().stream().map(LogLine::text).toList();
  }

  @Override
  public synchronized String toString() {
    return "ScreenMirror[" + engine.cols() + "x" + engine.rows() + ", " + viewers.size() + " viewers]";
  }
}
