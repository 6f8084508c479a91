package dev.agentdesk.aci.runtime.server;

import dev.agentdesk.aci.runtime.AciRuntimeException;
import dev.agentdesk.aci.runtime.WireTap;
import dev.agentdesk.aci.runtime.session.Session;
import dev.agentdesk.aci.runtime.session.SessionHost;
import dev.agentdesk.aci.runtime.session.SessionLimits;
import dev.agentdesk.aci.runtime.session.Transport;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.javalin.websocket.WsContext;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.eclipse.jetty.websocket.api.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The WebSocket listener (Javalin 7 on Jetty 12). The upgrade is where browsers are kept out: a
 * request that carries an {@code Origin} must name an allowed one, else HTTP 403 (native clients
 * send none). The connection cap is also enforced there, before any session exists.
 */
public final class AciServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AciServer.class);
  /** Most concurrent connections (the reference's MAX_CONNECTIONS). */
  public static final int MAX_CONNECTIONS = 64;
  public static final String ORIGIN_REJECTED = "browser WebSocket origin is not allowed by --allowed-origin";
  public static final String STOPPING = "the runtime is stopping";
  /** How long {@link #close} waits for the sessions' action and screencast threads to end. */
  private static final long SESSION_STOP_MS = 2000;
  /** Jetty's own idle timeout sits above the protocol's 15-minute idle timeout, which fires first. */
  private static final Duration TRANSPORT_IDLE = Duration.ofMinutes(16);

  private final Javalin app;
  private final SessionHost host;
  private final Set<String> allowedOrigins;
  private final Map<String, Session> sessions = new ConcurrentHashMap<>();
  /** The tap's number for each connection (by Javalin session id). */
  private final Map<String, Integer> tapped = new ConcurrentHashMap<>();
  private final WireTap tap;
  /** Set first thing in {@link #close}: upgrades are refused and a connection that slips in is closed. */
  private final AtomicBoolean closing = new AtomicBoolean();

  private AciServer(SessionHost host, List<String> allowedOrigins, WireTap tap) {
    this.host = host;
    this.tap = tap;
    for (String o : allowedOrigins) {
      if (o.equals("*")) {
        throw AciRuntimeException.badRequest("--allowed-origin '*' is refused: list the exact origins to admit");
      }
    }
    this.allowedOrigins = Set.copyOf(allowedOrigins);
    this.app = Javalin.create(cfg -> {
      cfg.startup.showJavalinBanner = false;
      cfg.startup.showOldJavalinVersionWarning = false;
      cfg.jetty.modifyWebSocketServletFactory(f -> {
        f.setMaxTextMessageSize(SessionLimits.TRANSPORT_MAX_MESSAGE_BYTES);
        f.setMaxBinaryMessageSize(SessionLimits.TRANSPORT_MAX_MESSAGE_BYTES);
        f.setMaxFrameSize(SessionLimits.TRANSPORT_MAX_MESSAGE_BYTES);
        f.setIdleTimeout(TRANSPORT_IDLE);
      });
      cfg.routes.wsBeforeUpgrade("/", this::admit);
      cfg.routes.exception(Refused.class, (e, ctx) -> { });
      cfg.routes.ws("/", ws -> {
        ws.onConnect(ctx -> {
          int conn = tap.opened();
          tapped.put(ctx.sessionId(), conn);
          Session s = new Session(host, new WsTransport(ctx, tap, conn));
          sessions.put(ctx.sessionId(), s);
          // read after the put: either close() sees this session or this sees close() (or both)
          if (sessions.size() > MAX_CONNECTIONS || closing.get()) {
            sessions.remove(ctx.sessionId());
            s.onClose();
            ctx.closeSession();
          }
        });
        ws.onMessage(ctx -> {
          Session s = sessions.get(ctx.sessionId());
          if (s != null) {
            tap.received(tapped.getOrDefault(ctx.sessionId(), 0), ctx.message());
            s.onText(ctx.message());
          }
        });
        ws.onBinaryMessage(ctx -> {
          Session s = sessions.get(ctx.sessionId());
          if (s != null) {
            if (tap != WireTap.NONE) {
              byte[] b = new byte[ctx.data().remaining()];
              ctx.data().duplicate().get(b);
              tap.receivedBinary(tapped.getOrDefault(ctx.sessionId(), 0), b);
            }
            s.onBinary(ctx.data().remaining());
          }
        });
        ws.onClose(ctx -> end(ctx.sessionId()));
        ws.onError(ctx -> end(ctx.sessionId()));
      });
    });
  }

  private void admit(Context ctx) {
    if (closing.get()) {
      refuse(ctx, HttpStatus.SERVICE_UNAVAILABLE, STOPPING);
    }
    List<String> origins = Collections.list(ctx.req().getHeaders("Origin"));
    if (origins.size() > 1 || (origins.size() == 1 && !allowedOrigins.contains(origins.get(0)))) {
      refuse(ctx, HttpStatus.FORBIDDEN, ORIGIN_REJECTED);
    }
    if (sessions.size() >= MAX_CONNECTIONS) {
      refuse(ctx, HttpStatus.SERVICE_UNAVAILABLE, "too many connections (cap " + MAX_CONNECTIONS + ")");
    }
  }

  /**
   * Writes and commits the refusal on the servlet response itself — Javalin's upgrade path drops
   * result bodies — then aborts the upgrade.
   */
  private static void refuse(Context ctx, HttpStatus status, String body) {
    try {
      ctx.res().setStatus(status.getCode());
      ctx.res().setContentType("text/plain; charset=utf-8");
      byte[] bytes = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
      ctx.res().setContentLength(bytes.length);
      ctx.res().getOutputStream().write(bytes);
      ctx.res().flushBuffer();
    } catch (java.io.IOException e) {
      LOG.debug("client left during refusal: {}", e.toString());
    }
    throw new Refused(status, body);
  }

  /** An upgrade refused with an HTTP status and a plain-text reason. */
  private static final class Refused extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final transient HttpStatus status;

    Refused(HttpStatus status, String message) {
      super(message, null, false, false);
      this.status = status;
    }
  }

  private void end(String id) {
    Integer conn = tapped.remove(id);
    if (conn != null) {
      tap.closed(conn);
    }
    Session s = sessions.remove(id);
    if (s != null) {
      s.onClose();
    }
  }

  /** Starts listening on {@code bindHost:port} (port 0 picks a free one). */
  public static AciServer start(SessionHost host, String bindHost, int port, List<String> allowedOrigins) {
    return start(host, bindHost, port, allowedOrigins, WireTap.NONE);
  }

  /** As {@link #start(SessionHost, String, int, List)}, showing every message to {@code tap}. */
  public static AciServer start(SessionHost host, String bindHost, int port, List<String> allowedOrigins,
      WireTap tap) {
    AciServer server = new AciServer(host, allowedOrigins, tap);
    try {
      server.app.start(bindHost, port);
    } catch (RuntimeException e) {
      throw new AciRuntimeException(AciRuntimeException.Reason.ENVIRONMENT,
          "cannot listen on " + bindHost + ":" + port + " (" + rootMessage(e) + ")", e);
    }
    return server;
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return String.valueOf(t.getMessage());
  }

  public int port() {
    return app.port();
  }

  /** Open connections right now. */
  public int connections() {
    return sessions.size();
  }

  /** Bytes queued for all connections and not yet written to their sockets. */
  public long queuedBytes() {
    return sessions.values().stream().mapToLong(Session::queuedBytes).sum();
  }

  /**
   * Stops in this order: refuse new connections; end every session (its worker, screencasts and
   * exec children) and wait, at most {@value #SESSION_STOP_MS} ms in all, until no session thread
   * runs any more — after this returns none of them touches the desktop; then stop Jetty, which
   * closes the sockets. Idempotent.
   */
  @Override
  public void close() {
    if (!closing.compareAndSet(false, true)) {
      return;
    }
    List<Session> all = List.copyOf(sessions.values());
    all.forEach(Session::onClose);
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SESSION_STOP_MS);
    int late = 0;
    for (Session s : all) {
      try {
        if (!s.awaitStopped(deadline)) {
          late++;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    if (late > 0) {
      LOG.warn("{} of {} sessions still had a running action after {} ms", late, all.size(), SESSION_STOP_MS);
    }
    try {
      app.stop();
    } catch (RuntimeException e) {
      LOG.warn("stopping the ACI listener: {}", e.toString());
    }
  }

  /**
   * Jetty's asynchronous sends. Javalin's {@code WsContext.send} passes a no-op callback, and Jetty
   * queues without limit for a client that stops reading; sending with our own callback is what lets
   * the session see how much is still unwritten. Sends are serialised so that messages never interleave.
   */
  private static final class WsTransport implements Transport {
    private final WsContext ctx;
    private final WireTap tap;
    private final int conn;

    WsTransport(WsContext ctx, WireTap tap, int conn) {
      this.ctx = ctx;
      this.tap = tap;
      this.conn = conn;
    }

    @Override
    public void text(String text, Runnable written) {
      tap.sent(conn, text);
      send(written, cb -> ctx.session.sendText(text, cb));
    }

    @Override
    public void binary(byte[] message, Runnable written) {
      tap.sentBinary(conn, message);
      send(written, cb -> ctx.session.sendBinary(ByteBuffer.wrap(message), cb));
    }

    private void send(Runnable written, Consumer<Callback> how) {
      AtomicBoolean once = new AtomicBoolean();
      Runnable done = () -> {
        if (once.compareAndSet(false, true)) {
          written.run();
        }
      };
      synchronized (this) {
        if (!ctx.session.isOpen()) {
          done.run();
          return;
        }
        try {
          how.accept(Callback.from(done, failure -> {
            LOG.debug("send failed: {}", failure.toString());
            done.run();
          }));
        } catch (RuntimeException e) {
          LOG.debug("send on a closing connection: {}", e.toString());
          done.run();
        }
      }
    }

    @Override
    public void close() {
      synchronized (this) {
        if (ctx.session.isOpen()) {
          ctx.closeSession();
        }
      }
    }
  }
}
