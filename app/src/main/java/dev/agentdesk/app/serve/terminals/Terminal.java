package dev.agentdesk.app.serve.terminals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.app.serve.AgentdeskServer;
import dev.agentdesk.app.serve.EventHub;
import dev.agentdesk.app.serve.ServeException;
import dev.agentdesk.app.serve.ServerEvent;
import dev.agentdesk.terminal.parser.EventJson;
import dev.agentdesk.terminal.session.PtySession;
import dev.agentdesk.terminal.session.SessionEvent;
import dev.agentdesk.terminal.session.SessionListener;
import dev.agentdesk.terminal.session.SessionState;
import dev.agentdesk.terminal.tcap.Direction;
import dev.agentdesk.terminal.tcap.TcapWriter;
import dev.agentdesk.terminal.vt.ScreenSnapshot;
import io.javalin.websocket.WsContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One supervised terminal: its PTY session, the server's screen of it (which browsers follow
 * byte for byte after a repaint), its socket clients and its capture. Output reaches it on the session's reader thread; everything here is short.
 */
final class Terminal implements SessionListener {
  private static final Logger LOG = LoggerFactory.getLogger(Terminal.class);
  static final int PREVIEW_LINES = 8;

  final String id;
  final String title;
  final List<String> argv;
  final String cwd;
  final Instant createdAt = Instant.now();
  private final EventHub events;
  private final Path captureDir;
  private final ScreenMirror mirror;
  /** Each socket and the viewer that forwards the terminal's bytes to it. */
  private final Map<WsContext, ScreenMirror.Viewer> clients = new ConcurrentHashMap<>();
  /** The last parsed events, replayed to a socket that joins late so its event list is not empty. */
  private final java.util.ArrayDeque<JsonNode> recentEvents = new java.util.ArrayDeque<>();
  static final int RECENT_EVENTS = 50;
  private final Object captureLock = new Object();
  private volatile PtySession session;
  /** Told of every input a person sends (auto-resume must not type after it); never null. */
  private volatile Runnable onInput = () -> {};
  private volatile SessionState state;
  private volatile Integer exitCode;
  private TcapWriter capture;
  private Path capturePath;
  private long captureStartNanos;
  private long captureBytes;

  Terminal(String id, List<String> argv, String cwd, int cols, int rows, EventHub events, Path captureDir) {
    this.id = id;
    this.argv = List.copyOf(argv);
    this.cwd = cwd;
    this.title = Path.of(argv.get(0)).getFileName() + (argv.size() > 1 ? " " + String.join(" ", argv.subList(1, argv.size())) : "");
    this.events = events;
    this.captureDir = captureDir;
    this.mirror = new ScreenMirror(cols, rows);
  }

  /** Attaches the started session (the terminal is its listener from the first byte on). */
  void attach(PtySession s) {
    this.session = s;
    this.state = s.state();
  }

  PtySession session() {
    return session;
  }

  void onInput(Runnable r) {
    this.onInput = r;
  }

  boolean exited() {
    return exitCode != null;
  }

  // ---- output side (reader thread) ----

  @Override
  public void onOutput(byte[] chunk) {
    mirror.feed(chunk);
    record(Direction.OUTPUT, chunk);
  }

  @Override
  public void onEvent(SessionEvent event) {
    if (event instanceof SessionEvent.StateChanged sc) {
      state = sc.state();
      publishState();
    } else if (event instanceof SessionEvent.Parsed p) {
      JsonNode json = EventJson.toNode(p.event());
      synchronized (recentEvents) {
        recentEvents.addLast(json);
        if (recentEvents.size() > RECENT_EVENTS) {
          recentEvents.removeFirst();
        }
      }
      events.publish(new ServerEvent.TerminalEvent(id, json));
      broadcast(Map.of("type", "event", "event", json));
    } else if (event instanceof SessionEvent.Exited ex) {
      exitCode = ex.exitCode();
      stopCaptureQuietly();
      publishState();
      broadcast(Map.of("type", "exit", "exit_code", ex.exitCode()));
    }
  }

  private void publishState() {
    TerminalJson json = json();
    events.publish(new ServerEvent.TerminalState(id, dev.agentdesk.app.serve.Json.MAPPER.valueToTree(json.state())));
    broadcast(Map.of("type", "state", "terminal", json));
  }

  // ---- input side (request threads) ----

  void input(String text) {
    write(text.getBytes(StandardCharsets.UTF_8));
  }

  void key(String name) {
    write(KeyEncoder.encode(name, mirror.applicationCursorKeys()));
  }

  /** Raw bytes from the browser: what xterm.js sends for mouse reports in the X10 encoding. */
  void inputBytes(byte[] bytes) {
    write(bytes);
  }

  private void write(byte[] bytes) {
    requireRunning();
    onInput.run();
    record(Direction.INPUT, bytes);
    session.write(bytes);
  }

  /**
   * Resizes the server's engine (and so every browser, at this point of the byte stream), then
   * the PTY. Nothing happens when the size is the one it has.
   */
  void resize(int cols, int rows) {
    requireRunning();
    if (mirror.resize(cols, rows)) {
      session.resize(cols, rows);
    }
  }

  private void requireRunning() {
    if (exited() || !session.isRunning()) {
      throw new ServeException(ServeException.Reason.CONFLICT, "terminal " + id + " has exited");
    }
  }

  // ---- capture ----

  TerminalJson.Capture startCapture() {
    requireRunning();
    synchronized (captureLock) {
      if (capture == null) {
        try {
          Files.createDirectories(captureDir);
          capturePath = captureDir.resolve(id + "-" + System.currentTimeMillis() + ".tcap");
          capture = TcapWriter.create(capturePath);
          captureStartNanos = System.nanoTime();
          captureBytes = 0;
        } catch (IOException e) {
          throw new ServeException(ServeException.Reason.UNAVAILABLE, "cannot write a capture: " + e.getMessage(), e);
        }
      }
      return captureJson();
    }
  }

  TerminalJson.Capture stopCapture() {
    stopCaptureQuietly();
    synchronized (captureLock) {
      return captureJson();
    }
  }

  private void stopCaptureQuietly() {
    synchronized (captureLock) {
      if (capture != null) {
        try {
          capture.close();
        } catch (IOException e) {
          LOG.warn("closing capture {}: {}", capturePath, e.toString());
        }
        capture = null;
      }
    }
  }

  /** The last capture file, once stopped (a live capture is still being written). */
  Path captureFile() {
    synchronized (captureLock) {
      if (capturePath == null) {
        throw ServeException.notFound("terminal " + id + " has no capture; start one with POST /api/terminals/" + id + "/capture");
      }
      if (capture != null) {
        try {
          capture.flush();
        } catch (IOException e) {
          throw new ServeException(ServeException.Reason.UNAVAILABLE, "cannot flush the capture: " + e.getMessage(), e);
        }
      }
      return capturePath;
    }
  }

  private void record(Direction direction, byte[] bytes) {
    synchronized (captureLock) {
      if (capture == null) {
        return;
      }
      try {
        capture.write(direction, (System.nanoTime() - captureStartNanos) / 1_000, bytes, 0, bytes.length);
        captureBytes += bytes.length;
      } catch (IOException e) {
        LOG.warn("capture {} failed and stopped: {}", capturePath, e.toString());
        try {
          capture.close();
        } catch (IOException ignored) {
          // Already failing; the capture is abandoned either way.
        }
        capture = null;
      }
    }
  }

  private TerminalJson.Capture captureJson() {
    return new TerminalJson.Capture(capture != null, captureBytes, capturePath == null ? null : capturePath.toString());
  }

  // ---- views ----

  TerminalJson json() {
    SessionState s = state;
    PtySession ps = session;
    long now = ps == null ? 0 : ps.spec().clock().nowMillis();
    TerminalJson.Capture cap;
    synchronized (captureLock) {
      cap = captureJson();
    }
    return new TerminalJson(id, title, argv, s == null ? "none" : s.agent().cliName(), cwd, mirror.cols(), mirror.rows(),
        ps == null ? null : ps.pid(), createdAt.toString(), exited(), exitCode, s == null ? null : TerminalJson.state(s, now), cap, preview());
  }

  private List<String> preview() {
    ScreenSnapshot snap = mirror.snapshot();
    List<String> lines = new ArrayList<>(StructuralTokens.strip(snap.lines()));
    while (!lines.isEmpty() && lines.get(lines.size() - 1).isBlank()) {
      lines.remove(lines.size() - 1);
    }
    return List.copyOf(lines.subList(Math.max(0, lines.size() - PREVIEW_LINES), lines.size()));
  }

  /** Screen and log as text, structural tokens stripped, and the last parsed events (oldest first). */
  Map<String, Object> snapshot() {
    ScreenSnapshot snap = mirror.snapshot();
    List<JsonNode> events;
    synchronized (recentEvents) {
      events = List.copyOf(recentEvents);
    }
    return Map.of("cols", snap.cols(), "rows", snap.rows(), "lines", StructuralTokens.strip(snap.lines()),
        "cursor", Map.of("row", snap.cursorRow(), "col", snap.cursorCol(), "visible", snap.cursorVisible()),
        "alt_screen", snap.altScreen(), "log", StructuralTokens.strip(mirror.log()), "events", events);
  }

  String snapshotText() {
    List<String> all = new ArrayList<>(StructuralTokens.strip(mirror.log()));
    all.addAll(StructuralTokens.strip(mirror.snapshot().lines()));
    while (!all.isEmpty() && all.get(all.size() - 1).isBlank()) {
      all.remove(all.size() - 1);
    }
    return String.join("\n", all) + "\n";
  }

  // ---- socket clients ----

  /**
   * A browser joins: {@code reset} (the size), the repaint as one binary message, then every
   * chunk as it is read, {@code resize} where the size changes; the state and the recent events
   * follow the repaint.
   */
  void join(WsContext c) {
    ScreenMirror.Viewer viewer = new ScreenMirror.Viewer() {
      @Override
      public void start(int cols, int rows, byte[] repaint) {
        AgentdeskServer.send(c, Map.of("type", "reset", "cols", cols, "rows", rows));
        AgentdeskServer.sendBinary(c, repaint);
      }

      @Override
      public void output(byte[] chunk) {
        AgentdeskServer.sendBinary(c, chunk);
      }

      @Override
      public void resized(int cols, int rows) {
        AgentdeskServer.send(c, Map.of("type", "resize", "cols", cols, "rows", rows));
      }
    };
    clients.put(c, viewer);
    mirror.attach(viewer);
    AgentdeskServer.send(c, Map.of("type", "state", "terminal", json()));
    List<JsonNode> replay;
    synchronized (recentEvents) {
      replay = new ArrayList<>(recentEvents);
    }
    for (JsonNode e : replay) {
      AgentdeskServer.send(c, Map.of("type", "event", "event", e));
    }
  }

  void leave(WsContext c) {
    ScreenMirror.Viewer viewer = clients.remove(c);
    if (viewer != null) {
      mirror.detach(viewer);
    }
    AgentdeskServer.forget(c);
  }

  boolean hasClients() {
    return !clients.isEmpty();
  }

  private void broadcast(Object message) {
    for (WsContext c : clients.keySet()) {
      AgentdeskServer.send(c, message);
    }
  }

  void closeClients() {
    for (WsContext c : clients.keySet()) {
      try {
        c.closeSession(1000, "terminal removed");
      } catch (RuntimeException e) {
        LOG.debug("closing a terminal socket: {}", e.toString());
      }
    }
    for (ScreenMirror.Viewer v : clients.values()) {
      mirror.detach(v);
    }
    clients.clear();
  }

  void kill() {
    stopCaptureQuietly();
    PtySession s = session;
    if (s != null) {
      s.close();
    }
  }
}
