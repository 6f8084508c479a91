package dev.agentdesk.app.serve.terminals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.agents.TerminalHost;
import dev.agentdesk.app.serve.AgentdeskServer;
import dev.agentdesk.app.serve.ApiArea;
import dev.agentdesk.app.serve.ErrorBody;
import dev.agentdesk.app.serve.EventHub;
import dev.agentdesk.app.serve.EventSnapshot;
import dev.agentdesk.app.serve.Json;
import dev.agentdesk.app.serve.ServeException;
import dev.agentdesk.app.serve.ServerEvent;
import dev.agentdesk.app.serve.notifications.NotificationsArea;
import dev.agentdesk.terminal.parser.Agent;
import dev.agentdesk.terminal.session.PtySession;
import dev.agentdesk.terminal.session.SessionException;
import dev.agentdesk.terminal.session.SessionListener;
import dev.agentdesk.terminal.session.SessionSpec;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.websocket.WsMessageContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Terminals over the terminal module's supervised PTY sessions: create, list, state, input, keys,
 * resize, kill, capture, snapshot, and a WebSocket per terminal that streams the program's bytes
 * (after a repaint from the server's VT engine) to the browser's xterm.js and takes its input. Every terminal is killed when the server stops.
 */
public final class TerminalsArea implements ApiArea, EventSnapshot {
  /** How many terminals may run at once; ended ones do not count. */
  static final int MAX_TERMINALS = 64;
  /**
   * How many ended agent terminals stay listed (their last screen, for the agent's page) before
   * the oldest go: a serve that starts and ends agents for days must not keep every one.
   */
  static final int KEEP_ENDED_AGENT_TERMINALS = 16;
  static final int MIN_COLS = 20;
  static final int MAX_COLS = 500;
  static final int MIN_ROWS = 5;
  static final int MAX_ROWS = 200;
  static final int MAX_INPUT = 64 * 1024;

  private final EventHub events;
  private final Path captureDir;
  private final Map<String, Terminal> terminals = new ConcurrentHashMap<>();
  /** Agents' terminals whose process ended, oldest first (reaped beyond {@link #KEEP_ENDED_AGENT_TERMINALS}). */
  private final java.util.Deque<String> endedAgentTerminals = new java.util.concurrent.ConcurrentLinkedDeque<>();
  private final NotificationsArea notifications;
  private final java.util.function.Supplier<SessionListener> limits;

  /** @param notifications where terminal states and input are reported (notifications, auto-resume) */
  public TerminalsArea(EventHub events, Path dataDir, NotificationsArea notifications) {
    this(events, dataDir, notifications, () -> new SessionListener() {});
  }

  /** @param limits a listener per terminal for the usage limits it shows (the history keeps them) */
  public TerminalsArea(EventHub events, Path dataDir, NotificationsArea notifications,
      java.util.function.Supplier<SessionListener> limits) {
    this.events = events;
    this.captureDir = dataDir.resolve("captures");
    this.notifications = notifications;
    this.limits = limits;
  }

  /** The body of {@code POST /api/terminals}. */
  public record NewTerminal(List<String> argv, String agent, String cwd, Integer cols, Integer rows,
      Map<String, String> env) {
    public NewTerminal {
      if (argv == null || argv.isEmpty() || argv.get(0) == null || argv.get(0).isBlank()) {
        throw new IllegalArgumentException("argv must name the program to run, e.g. [\"bash\"]");
      }
      for (String a : argv) {
        if (a == null) {
          throw new IllegalArgumentException("argv must not contain null");
        }
      }
      if (cols != null && (cols < MIN_COLS || cols > MAX_COLS)) {
        throw new IllegalArgumentException("cols must be between " + MIN_COLS + " and " + MAX_COLS + ", got " + cols);
      }
      if (rows != null && (rows < MIN_ROWS || rows > MAX_ROWS)) {
        throw new IllegalArgumentException("rows must be between " + MIN_ROWS + " and " + MAX_ROWS + ", got " + rows);
      }
      env = env == null ? Map.of() : Map.copyOf(env);
    }
  }

  record TextBody(String text) {
    TextBody {
      if (text == null || text.isEmpty()) {
        throw new IllegalArgumentException("text must not be empty");
      }
      if (text.length() > MAX_INPUT) {
        throw new IllegalArgumentException("text is longer than " + MAX_INPUT + " characters");
      }
    }
  }

  record KeyBody(String key) {
    KeyBody {
      if (key == null || key.isEmpty()) {
        throw new IllegalArgumentException("key must not be empty");
      }
    }
  }

  record ResizeBody(Integer cols, Integer rows) {
    ResizeBody {
      if (cols == null || rows == null) {
        throw new IllegalArgumentException("give both cols and rows");
      }
      if (cols < MIN_COLS || cols > MAX_COLS || rows < MIN_ROWS || rows > MAX_ROWS) {
        throw new IllegalArgumentException("size must be " + MIN_COLS + ".." + MAX_COLS + " cols × " + MIN_ROWS + ".."
            + MAX_ROWS + " rows, got " + cols + "×" + rows);
      }
    }
  }

  /** A message from the browser on {@code /ws/terminals/{id}}. */
  record ClientMessage(String type, String text, String key, Integer cols, Integer rows) {}

  @Override
  public void routes(RoutesConfig r) {
    r.get("/api/terminals", ctx -> ctx.json(list()));
    r.post("/api/terminals", ctx -> ctx.status(201).json(create(Json.read(ctx.body(), NewTerminal.class)).json()));
    r.get("/api/terminals/{id}", ctx -> ctx.json(get(ctx).json()));
    r.delete("/api/terminals/{id}", ctx -> {
      Terminal t = get(ctx);
      remove(t);
      ctx.status(204);
    });
    r.post("/api/terminals/{id}/input", ctx -> {
      get(ctx).input(Json.read(ctx.body(), TextBody.class).text());
      ctx.status(204);
    });
    r.post("/api/terminals/{id}/key", ctx -> {
      get(ctx).key(Json.read(ctx.body(), KeyBody.class).key());
      ctx.status(204);
    });
    r.post("/api/terminals/{id}/resize", ctx -> {
      ResizeBody b = Json.read(ctx.body(), ResizeBody.class);
      Terminal t = get(ctx);
      guard(() -> t.resize(b.cols(), b.rows()));
      ctx.json(t.json());
    });
    r.post("/api/terminals/{id}/capture", ctx -> ctx.json(get(ctx).startCapture()));
    r.delete("/api/terminals/{id}/capture", ctx -> ctx.json(get(ctx).stopCapture()));
    r.get("/api/terminals/{id}/capture.tcap", ctx -> {
      Terminal t = get(ctx);
      Path file = t.captureFile();
      ctx.contentType("application/octet-stream")
          .header("Content-Disposition", "attachment; filename=\"" + t.id + ".tcap\"")
          .result(Files.readAllBytes(file));
    });
    r.get("/api/terminals/{id}/snapshot", ctx -> {
      Terminal t = get(ctx);
      String format = ctx.queryParamAsClass("format", String.class).getOrDefault("json");
      switch (format) {
        case "json" -> ctx.json(t.snapshot());
        case "text" -> ctx.contentType("text/plain; charset=utf-8").result(t.snapshotText());
        default -> throw ServeException.badRequest("format must be json or text, got '" + format + "'");
      }
    });
    r.wsBeforeUpgrade("/ws/terminals/{id}", this::get);
    r.ws("/ws/terminals/{id}", ws -> {
      ws.onConnect(ctx -> {
        Terminal t = terminals.get(ctx.pathParam("id"));
        if (t == null) {
          ctx.closeSession(4404, "no such terminal");
          return;
        }
        ctx.enableAutomaticPings();
        t.join(ctx);
      });
      ws.onMessage(ctx -> onMessage(ctx));
      ws.onBinaryMessage(ctx -> {
        Terminal t = terminals.get(ctx.pathParam("id"));
        java.nio.ByteBuffer data = ctx.data();
        byte[] bytes = new byte[data.remaining()];
        data.get(bytes);
        try {
          if (t == null) {
            throw ServeException.notFound("no terminal " + ctx.pathParam("id"));
          }
          if (bytes.length > MAX_INPUT) {
            throw ServeException.badRequest("input is longer than " + MAX_INPUT + " bytes");
          }
          if (bytes.length > 0) {
            guard(() -> t.inputBytes(bytes));
          }
        } catch (ServeException e) {
          AgentdeskServer.send(ctx, Map.of("type", "error", "code", e.reason().code(), "message", e.getMessage()));
        }
      });
      ws.onClose(ctx -> leave(ctx.pathParam("id"), ctx));
      ws.onError(ctx -> leave(ctx.pathParam("id"), ctx));
    });
  }

  private void leave(String id, io.javalin.websocket.WsContext ctx) {
    Terminal t = terminals.get(id);
    if (t != null) {
      t.leave(ctx);
    }
  }

  private void onMessage(WsMessageContext ctx) {
    Terminal t = terminals.get(ctx.pathParam("id"));
    try {
      if (t == null) {
        throw ServeException.notFound("no terminal " + ctx.pathParam("id"));
      }
      ClientMessage m = Json.read(ctx.message(), ClientMessage.class);
      switch (m.type() == null ? "" : m.type()) {
        case "input" -> t.input(new TextBody(m.text()).text());
        case "key" -> t.key(new KeyBody(m.key()).key());
        case "resize" -> {
          ResizeBody b = new ResizeBody(m.cols(), m.rows());
          guard(() -> t.resize(b.cols(), b.rows()));
        }
        default -> throw ServeException.badRequest("type must be input, key or resize");
      }
    } catch (ServeException e) {
      AgentdeskServer.send(ctx, Map.of("type", "error", "code", e.reason().code(), "message", e.getMessage()));
    } catch (IllegalArgumentException | SessionException e) {
      ErrorBody body = new ErrorBody("bad_request", e.getMessage());
      AgentdeskServer.send(ctx, Map.of("type", "error", "code", body.code(), "message", body.message()));
    }
  }

  // ---- the same calls for in-process callers (the MCP tools); each throws ServeException ----

  /** Every terminal, oldest first, as {@code GET /api/terminals} lists them. */
  public List<TerminalJson> list() {
    List<Terminal> all = new ArrayList<>(terminals.values());
    all.sort(Comparator.comparing(t -> t.createdAt));
    return all.stream().map(Terminal::json).toList();
  }

  /** {@code GET /api/terminals/{id}}. */
  public TerminalJson terminal(String id) {
    return get(id).json();
  }

  /** {@code GET /api/terminals/{id}/snapshot}: lines, cursor, log and recent events. */
  public Map<String, Object> snapshot(String id) {
    return get(id).snapshot();
  }

  /** {@code POST /api/terminals/{id}/input}. */
  public void input(String id, String text) {
    Terminal t = get(id);
    String checked = new TextBody(text).text();
    guard(() -> t.input(checked));
  }

  /** {@code POST /api/terminals/{id}/key}. */
  public void key(String id, String key) {
    Terminal t = get(id);
    String checked = new KeyBody(key).key();
    guard(() -> t.key(checked));
  }

  /** {@code POST /api/terminals}: the new terminal. */
  public TerminalJson start(NewTerminal req) {
    return create(req).json();
  }

  private Terminal get(Context ctx) {
    return get(ctx.pathParam("id"));
  }

  private Terminal get(String id) {
    Terminal t = terminals.get(id);
    if (t == null) {
      throw ServeException.notFound("no terminal " + id);
    }
    return t;
  }

  Terminal create(NewTerminal req) {
    guard(this::checkCapacity);
    Agent agent = null;
    if (req.agent() != null && !req.agent().isBlank()) {
      try {
        agent = Agent.fromCliName(req.agent().trim());
      } catch (IllegalArgumentException e) {
        throw ServeException.badRequest(e.getMessage());
      }
    }
    int cols = req.cols() == null ? 120 : req.cols();
    int rows = req.rows() == null ? 36 : req.rows();
    String cwd = req.cwd() == null || req.cwd().isBlank() ? System.getProperty("user.dir") : req.cwd();
    Path dir;
    try {
      dir = Path.of(cwd);
    } catch (java.nio.file.InvalidPathException e) {
      throw ServeException.badRequest("cwd is not a folder name (it contains a NUL byte or another character no"
          + " path can hold)");
    }
    if (!dir.isAbsolute() || !Files.isDirectory(dir)) {
      throw ServeException.badRequest("cwd must be an existing absolute folder, got '" + cwd + "'");
    }
    SessionSpec spec = guard(() -> {
      SessionSpec s = SessionSpec.of(req.argv()).withSize(cols, rows).withCwd(dir);
      for (Map.Entry<String, String> e : req.env().entrySet()) {
        s = s.withEnv(e.getKey(), e.getValue());
      }
      return s;
    });
    if (agent != null) {
      spec = spec.withAgent(agent);
    }
    String id = UUID.randomUUID().toString().substring(0, 8);
    Terminal t = new Terminal(id, req.argv(), dir.toString(), cols, rows, events, captureDir);
    SessionSpec finalSpec = spec;
    String name = t.title + " (" + id + ")";
    SessionListener watch = notifications.watchTerminal(id, name);
    PtySession session = guard(() -> PtySession.start(finalSpec, List.of(t, watch, limits.get())));
    try {
      t.attach(session);
      notifications.trackTerminal(id, name, session.agent() == Agent.NONE ? null : session.agent().cliName(), session);
      t.onInput(() -> notifications.terminalInput(id));
    } catch (RuntimeException e) {
      // Not listed, so nobody could ever stop it: end the program rather than orphan it.
      session.close();
      notifications.forget(id);
      throw e;
    }
    terminals.put(id, t);
    events.publish(new ServerEvent.TerminalState(id, Json.MAPPER.valueToTree(t.json().state())));
    return t;
  }

  /**
   * Starts agents' PTYs as terminals of this server: same id, its screen mirror and sockets
   * attached from the first byte, listed on the Terminals page. The agents service's listener is
   * attached beside the terminal's own.
   */
  public TerminalHost host() {
    return new TerminalHost() {
      @Override
      public Started start(SessionSpec spec, SessionListener listener) {
        checkCapacity();
        String id = UUID.randomUUID().toString().substring(0, 8);
        String dir = spec.cwd().map(Path::toString).orElse(System.getProperty("user.dir"));
        Terminal t = new Terminal(id, spec.argv(), dir, spec.cols(), spec.rows(), events, captureDir);
        PtySession session = PtySession.start(spec, List.of(t, listener, limits.get()));
        t.attach(session);
        // The agent's own state goes to notifications through the agents area; input here still
        // counts as the user's (auto-resume of that agent must not type after it).
        t.onInput(() -> notifications.terminalInput(id));
        terminals.put(id, t);
        events.publish(new ServerEvent.TerminalState(id, Json.MAPPER.valueToTree(t.json().state())));
        return new Started(id, session);
      }

      @Override
      public void ended(String terminalId) {
        endedAgentTerminals.remove(terminalId);
        endedAgentTerminals.addLast(terminalId);
        while (endedAgentTerminals.size() > KEEP_ENDED_AGENT_TERMINALS) {
          String oldest = endedAgentTerminals.pollFirst();
          Terminal t = oldest == null ? null : terminals.get(oldest);
          if (t != null && t.exited()) {
            remove(t);
          }
        }
      }

      @Override
      public void removed(String terminalId) {
        endedAgentTerminals.remove(terminalId);
        Terminal t = terminals.get(terminalId);
        if (t != null) {
          remove(t);
        }
      }
    };
  }

  /** Refuses a new terminal while {@link #MAX_TERMINALS} run; ended ones do not count. */
  private void checkCapacity() {
    long running = terminals.values().stream().filter(t -> !t.exited()).count();
    if (running >= MAX_TERMINALS) {
      throw new SessionException(SessionException.Reason.TOO_MANY_RUNNING, "already " + running
          + " terminals running (at most " + MAX_TERMINALS + "); stop one first");
    }
  }

  /** The state JSON of terminal {@code id}, as {@code GET /api/terminals/{id}} shows it. */
  public Optional<Object> state(String id) {
    Terminal t = terminals.get(id);
    return t == null ? Optional.empty() : Optional.of(t.json().state());
  }

  private void remove(Terminal t) {
    terminals.remove(t.id);
    notifications.forget(t.id);
    t.kill();
    t.closeClients();
    events.publish(new ServerEvent.TerminalRemoved(t.id));
  }

  /** Runs a session call, turning the session module's errors into API errors. */
  private static <T> T guard(java.util.function.Supplier<T> call) {
    try {
      return call.get();
    } catch (SessionException e) {
      throw translate(e);
    }
  }

  private static void guard(Runnable call) {
    guard(() -> {
      call.run();
      return null;
    });
  }

  static ServeException translate(SessionException e) {
    ServeException.Reason reason = switch (e.reason()) {
      case INVALID_SPEC, UNKNOWN_AGENT, UNKNOWN_KEY, SPAWN_FAILED -> ServeException.Reason.BAD_REQUEST;
      case SESSION_CLOSED, CAPTURE_ACTIVE, TOO_MANY_RUNNING -> ServeException.Reason.CONFLICT;
      case IO -> ServeException.Reason.UNAVAILABLE;
    };
    return new ServeException(reason, e.getMessage(), e);
  }

  @Override
  public List<ServerEvent> snapshot() {
    List<ServerEvent> out = new ArrayList<>();
    for (TerminalJson t : list()) {
      JsonNode state = Json.MAPPER.valueToTree(t.state());
      out.add(new ServerEvent.TerminalState(t.id(), state));
    }
    return out;
  }

  @Override
  public void close() {
    for (Terminal t : new ArrayList<>(terminals.values())) {
      terminals.remove(t.id);
      t.kill();
      t.closeClients();
    }
  }
}
