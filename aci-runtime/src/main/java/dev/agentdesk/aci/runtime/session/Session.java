package dev.agentdesk.aci.runtime.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.aci.WireException;
import dev.agentdesk.aci.runtime.AciRuntimeException;
import dev.agentdesk.aci.runtime.desktop.Rect;
import dev.agentdesk.aci.runtime.image.RgbImage;
import dev.agentdesk.aci.runtime.screencast.Screencasts;
import dev.agentdesk.aci.wire.AciMessage;
import dev.agentdesk.aci.wire.Ack;
import dev.agentdesk.aci.wire.Action;
import dev.agentdesk.aci.wire.ActionMsg;
import dev.agentdesk.aci.wire.Ping;
import dev.agentdesk.aci.wire.Pong;
import dev.agentdesk.aci.wire.Query;
import dev.agentdesk.aci.wire.QueryKind;
import dev.agentdesk.aci.wire.Result;
import dev.agentdesk.aci.wire.Verb;
import dev.agentdesk.aci.wire.WireCodec;
import dev.agentdesk.aci.wire.WireContract;
import dev.agentdesk.aci.wire.WireEnum;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection's protocol state: handshake, then queries and actions correlated by
 * call_id. Before a successful hello every other message closes the connection (as the reference
 * does); after it, no single bad message ends the session — each gets a typed error.
 *
 * <p>Desktop actions run in arrival order on the session's own worker thread, so a long drag
 * does not hold up pings or queries; {@code wait} and {@code exec} run beside them.
 */
public final class Session {
  private static final Logger LOG = LoggerFactory.getLogger(Session.class);
  private static final Set<String> IGNORED_FROM_CLIENTS = Set.of("ack", "result", "welcome", "pong", "observation",
      "exec_output", "exec_exit");

  private final SessionHost host;
  private final Framing framing;
  private final Outbound out;
  private final DesktopActions desktop;
  private final Screenshots screenshots;
  private final ExecActions execs;
  private final StructuredActions structured;
  private final Screencasts screencasts;
  private final ExecutorService worker;
  private final ScheduledFuture<?> handshakeTimer;
  private final ScheduledFuture<?> lifetimeTimer;
  private volatile ScheduledFuture<?> idleTimer;
  private volatile long lastActivityNanos = System.nanoTime();
  private volatile boolean authenticated;
  private volatile boolean closed;
  private final AtomicBoolean closing = new AtomicBoolean();

  public Session(SessionHost host, Transport transport) {
    this.host = host;
    this.framing = new Framing(transport, WireContract.debugEnabled());
    this.out = framing;
    this.structured = host.structured == null ? null : new StructuredActions(host.structured);
    this.desktop = new DesktopActions(host.desktop, structured == null ? null : structured::centre);
    this.screenshots = new Screenshots(host.desktop);
    this.screencasts = new Screencasts((scope, edge) -> screenshots.capture(scope, edge).image(), out::offer,
        SessionLimits.MAX_LONG_EDGE, host.streams);
    this.execs = new ExecActions(host.exec, out, host.pool);
    this.worker = Executors.newSingleThreadExecutor(SessionHost.daemon("aci-session"));
    this.handshakeTimer = host.timers.schedule(() -> expire("handshake timeout"),
        host.limits.handshakeTimeout().toMillis(), TimeUnit.MILLISECONDS);
    this.lifetimeTimer = host.timers.schedule(() -> expire("connection max lifetime exceeded"),
        host.limits.maxLifetime().toMillis(), TimeUnit.MILLISECONDS);
  }

  /** One text message from the client. */
  public void onText(String text) {
    if (closed) {
      return;
    }
    touch();
    long bytes = text.length() > host.limits.maxMessageBytes() / 3
        ? text.getBytes(StandardCharsets.UTF_8).length : text.length();
    if (bytes > host.limits.maxMessageBytes()) {
      reject("?", "bad message: message too large: " + bytes + " bytes (cap " + host.limits.maxMessageBytes() + ")");
      return;
    }
    JsonNode node;
    try {
      node = WireCodec.parse(text);
    } catch (WireException e) {
      reject("?", "bad message: " + e.getMessage());
      return;
    }
    String type = node.path("type").isTextual() ? node.get("type").asText() : null;
    String callId = node.path("call_id").isTextual() ? node.get("call_id").asText() : "?";
    if (!authenticated) {
      if (!"hello".equals(type)) {
        fatal("handshake required: the first message must be `hello`");
        return;
      }
      hello(node);
      return;
    }
    try {
      route(node, type, callId);
    } catch (WireException e) {
      out.send(Result.error(callId, "bad message: " + e.getMessage()));
    }
  }

  /** A binary message: clients have nothing to send in binary, so it is refused (the session lives). */
  public void onBinary(int length) {
    if (closed) {
      return;
    }
    touch();
    reject("?", "bad message: binary frames are not accepted from clients (" + length + " bytes ignored)");
  }

  private void route(JsonNode node, String type, String callId) {
    if (type == null) {
      out.send(Result.error(callId, "bad message: missing or non-string `type`"));
      return;
    }
    switch (type) {
      case "hello" -> out.send(Result.error("?", "already authenticated"));
      case "ping" -> {
        Ping p = (Ping) WireCodec.decode(node);
        out.send(new Pong(p.t()));
      }
      case "query" -> query(node, callId);
      case "action" -> action(node, callId);
      default -> {
        if (IGNORED_FROM_CLIENTS.contains(type)) {
          WireCodec.decode(node); // malformed ones still get a typed error; good ones need no reply
        } else {
          out.send(Result.error(callId, "bad message: unknown message type \"" + type + "\""));
        }
      }
    }
  }

  private void hello(JsonNode node) {
    JsonNode v = node.path("v");
    if (!v.isMissingNode() && !(v.isIntegralNumber() && v.asLong() == 0)) {
      fatal("unsupported ACI version: " + v + " (this runtime speaks v0)");
      return;
    }
    dev.agentdesk.aci.wire.Hello hello;
    try {
      hello = (dev.agentdesk.aci.wire.Hello) WireCodec.decode(node);
    } catch (WireException e) {
      fatal("bad message: " + e.getMessage());
      return;
    }
    if (host.tokenRequired() && !host.tokenMatches(hello.token())) {
      fatal("authentication required: missing or invalid token");
      return;
    }
    authenticated = true;
    handshakeTimer.cancel(false);
    touch();
    // the welcome always advertises binary_frames; the session uses them only when the client asked
    framing.binary(hello.accept() != null && hello.accept().wantsBinaryFrames());
    out.send(host.welcome());
  }

  private void query(JsonNode node, String callId) {
    JsonNode q = node.path("q");
    if (q.isTextual() && WireEnumLookup.query(q.asText()) == null) {
      out.send(Result.error(callId, "unknown query: " + q.asText()));
      return;
    }
    Query query = (Query) WireCodec.decode(node);
    try {
      out.send(Result.ok(query.callId(), answer(query.q())));
    } catch (AciRuntimeException e) {
      out.send(Result.error(query.callId(), e.getMessage()));
    }
  }

  private JsonNode answer(QueryKind q) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    return switch (q) {
      case PLATFORM -> f.textNode("linux");
      case SCREEN_SIZE -> {
        Rect s = host.desktop.capture().screen();
        ObjectNode o = f.objectNode();
        o.put("w", s.w());
        o.put("h", s.h());
        yield o;
      }
      case READY -> ready();
      case LIST_WINDOWS -> desktop.listWindows();
    };
  }

  /** Ready when the X server answers and the screen shows something: a non-black pixel or a window. */
  private JsonNode ready() {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    boolean up;
    try {
      up = host.desktop.alive();
    } catch (RuntimeException e) {
      up = false;
    }
    boolean nonBlack = false;
    boolean windows = false;
    if (up) {
      Rect s = host.desktop.capture().screen();
      int[][] samples = {{s.w() / 2, s.h() / 2}, {s.w() / 4, s.h() / 4}, {3 * s.w() / 4, s.h() / 4},
          {s.w() / 4, 3 * s.h() / 4}, {3 * s.w() / 4, 3 * s.h() / 4}};
      for (int[] p : samples) {
        RgbImage px = host.desktop.capture().capture(new Rect(p[0], p[1], 1, 1));
        nonBlack |= px.rgbAt(0, 0) != 0;
      }
      windows = !host.desktop.windows().list().isEmpty();
    }
    o.put("ready", up && (nonBlack || windows));
    o.put("x11_up", up);
    o.put("display_up", up);
    o.put("root_nonblack", nonBlack);
    o.putNull("permissions_pending");
    return o;
  }

  private void action(JsonNode node, String callId) {
    JsonNode a = node.path("action");
    if (a.isObject() && a.path("verb").isTextual() && Verb.fromWire(a.get("verb").asText()) == null) {
      out.send(Ack.nack(callId, "unknown verb: " + a.get("verb").asText()));
      return;
    }
    if (a.isObject()) {
      String reference = RequestChecks.referenceError(a);
      if (reference != null) {
        out.send(Ack.nack(callId, reference));
        return;
      }
    }
    ActionMsg msg;
    try {
      msg = (ActionMsg) WireCodec.decode(node);
    } catch (WireException e) {
      boolean inAction = e.path().startsWith("/action");
      out.send(Ack.nack(callId, (inAction ? "bad action: " : "bad message: ") + e.getMessage()));
      return;
    }
    dispatch(msg.callId(), msg.action());
  }

  private void dispatch(String callId, Action a) {
    Verb verb = a.verb();
    if (verb == Verb.EXEC && !host.verbs.contains(Verb.EXEC)) {
      out.send(Ack.nack(callId, "exec is disabled by server policy"));
      return;
    }
    if (!host.verbs.contains(verb)) {
      out.send(Ack.nack(callId, "unsupported verb: " + verb.wire()
          + " (this runtime does not offer it; see welcome.capabilities.verbs)"));
      return;
    }
    switch (verb) {
      case WAIT -> {
        long ms = Math.min(a.ms() == null ? 0 : a.ms(), SessionLimits.MAX_WAIT_MS);
        host.timers.schedule(() -> out.send(Ack.ok(callId)), ms, TimeUnit.MILLISECONDS);
      }
      case EXEC -> execs.start(callId, a, host.desktop.name());
      case START_SCREENCAST -> startScreencast(callId, a);
      case STOP_SCREENCAST -> {
        screencasts.stopAll();
        out.send(Ack.ok(callId));
      }
      case SCREENSHOT -> submit(callId, () -> screenshots.answer(callId, a));
      case OBSERVE -> submit(callId, () -> structured.run(callId, a));
      case INVOKE_ACTION, SET_VALUE -> submit(callId, () -> observed(callId, a, structured.run(callId, a)));
      default -> submit(callId, () -> observed(callId, a, desktop.run(callId, a)));
    }
  }

  /**
   * Observe-after-act: a mutating action that asked to {@code observe} and succeeded gets its ack
   * first, then a fresh observation with cause = its call_id, captured with the observe levers
   * (a binary frame on a binary session). A failed action gets its nack and no follow-up; a failed
   * capture turns the follow-up into the error result {@code observe failed: ...}.
   */
  private AciMessage observed(String callId, Action a, AciMessage reply) {
    if (a.observe() == null || !(reply instanceof Ack ack) || !ack.ok()) {
      return reply;
    }
    out.send(reply);
    try {
      return screenshots.observe(callId, a.observe());
    } catch (RuntimeException e) {
      return Result.error(callId, "observe failed: " + e.getMessage());
    }
  }

  /** Bytes of this connection the transport has not written yet (a client that stops reading). */
  public long queuedBytes() {
    return framing.queuedBytes();
  }

  private void startScreencast(String callId, Action a) {
    try {
      screencasts.start(callId, a, () -> out.send(Ack.ok(callId)));
    } catch (AciRuntimeException e) {
      out.send(Ack.nack(callId, e.getMessage()));
    }
  }

  private interface Work {
    AciMessage run() throws InterruptedException;
  }

  private void submit(String callId, Work work) {
    try {
      worker.execute(() -> {
        try {
          out.send(work.run());
        } catch (AciRuntimeException e) {
          out.send(Ack.nack(callId, e.getMessage()));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
          LOG.warn("action {} failed unexpectedly", callId, e);
          out.send(Ack.nack(callId, "internal error: " + e));
        }
      });
    } catch (java.util.concurrent.RejectedExecutionException closing) {
      // the session closed while the message was in flight
    }
  }

  /**
   * Records activity. The idle timer is not rescheduled per message (that would leave one
   * cancelled task per message in the timer queue); it re-arms itself for the remaining time.
   */
  private void touch() {
    lastActivityNanos = System.nanoTime();
    if (authenticated && idleTimer == null) {
      synchronized (this) {
        if (idleTimer == null) {
          armIdle(host.limits.idleTimeout().toNanos());
        }
      }
    }
  }

  private synchronized void armIdle(long delayNanos) {
    if (closed) {
      return;
    }
    idleTimer = host.timers.schedule(this::checkIdle, Math.max(1, delayNanos), TimeUnit.NANOSECONDS);
  }

  private void checkIdle() {
    long idle = System.nanoTime() - lastActivityNanos;
    long limit = host.limits.idleTimeout().toNanos();
    if (idle >= limit) {
      expire("authenticated connection idle timeout");
    } else {
      armIdle(limit - idle);
    }
  }

  private void expire(String why) {
    if (!closed) {
      fatal(why);
    }
  }

  /** Before hello every error is fatal; after it the session lives on. */
  private void reject(String callId, String error) {
    if (authenticated) {
      out.send(Result.error(callId, error));
    } else {
      fatal(error);
    }
  }

  private void fatal(String error) {
    out.send(Result.error("?", error));
    out.close();
    onClose();
  }

  /**
   * The connection is gone (or the runtime is stopping): stop timers and work, kill this session's
   * children. Returns at once — an action in progress is interrupted, not awaited (see
   * {@link #awaitStopped}); safe to call from several threads, only the first does anything.
   */
  public void onClose() {
    if (!closing.compareAndSet(false, true)) {
      return;
    }
    closed = true;
    handshakeTimer.cancel(false);
    lifetimeTimer.cancel(false);
    ScheduledFuture<?> idle = idleTimer;
    if (idle != null) {
      idle.cancel(false);
    }
    execs.close();
    screencasts.close();
    worker.shutdownNow();
    if (structured != null) {
      structured.close();
    }
  }

  /**
   * After {@link #onClose}: waits until this session's worker and screencast threads have ended,
   * so that none of them touches the desktop any more, or until {@code deadlineNanos}
   * ({@link System#nanoTime()}).
   *
   * @return whether they all ended in time
   */
  public boolean awaitStopped(long deadlineNanos) throws InterruptedException {
    boolean workerDone = worker.awaitTermination(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
    return screencasts.awaitStopped(deadlineNanos) && workerDone;
  }

  /** Query names looked up without the decoder (which would reject an unknown one as invalid). */
  private static final class WireEnumLookup {
    static QueryKind query(String wire) {
      for (QueryKind k : QueryKind.values()) {
        if (((WireEnum) k).wire().equals(wire)) {
          return k;
        }
      }
      return null;
    }
  }
}
