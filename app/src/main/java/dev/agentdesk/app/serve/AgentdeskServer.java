package dev.agentdesk.app.serve;

import io.javalin.Javalin;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.EnumSet;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.http.HttpStatus;
import io.javalin.http.staticfiles.Location;
import io.javalin.json.JavalinJackson;
import io.javalin.websocket.WsContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP + WebSocket server behind {@code agentdesk serve}: the dashboard from the jar, the
 * REST API under {@code /api}, WebSockets under {@code /ws}, and {@code /openapi.json}.
 */
public final class AgentdeskServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AgentdeskServer.class);

  /** A route as registered, for the OpenAPI completeness check and the log. */
  public record Route(String method, String path) {}

  private final ServeConfig config;
  private final List<ApiArea> areas;
  private final EventHub events;
  private final AccessGuard guard;
  private final List<Route> routes = new CopyOnWriteArrayList<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Javalin app;

  private AgentdeskServer(ServeConfig config, EventHub events, List<ApiArea> areas) {
    this.config = config;
    this.events = events;
    this.areas = List.copyOf(areas);
    // The port is known once Jetty listens; the guard asks for it when it names the cookie.
    this.guard = new AccessGuard(config.access(), config.loopbackOnly(), this::port);
    this.app = Javalin.create(this::configure);
  }

  /** Builds the server with the given areas and starts listening. */
  public static AgentdeskServer start(ServeConfig config, EventHub events, List<ApiArea> areas) {
    AgentdeskServer server = new AgentdeskServer(config, events, areas);
    try {
      server.app.start(config.bind(), config.port());
    } catch (RuntimeException e) {
      server.close();
      throw new ServeException(ServeException.Reason.UNAVAILABLE,
          "cannot listen on " + config.bind() + ":" + config.port() + " (" + rootMessage(e) + ")", e);
    }
    for (ApiArea area : server.areas) {
      area.started();
    }
    return server;
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
  }

  public int port() {
    return app.port();
  }

  public ServeConfig config() {
    return config;
  }

  public EventHub events() {
    return events;
  }

  /** Every HTTP and WebSocket route the server registered (static files aside). */
  public List<Route> routes() {
    return Collections.unmodifiableList(new ArrayList<>(routes));
  }

  private void configure(JavalinConfig cfg) {
    cfg.startup.showJavalinBanner = false;
    cfg.startup.showOldJavalinVersionWarning = false;
    cfg.jsonMapper(new JavalinJackson(Json.MAPPER, false));
    cfg.http.maxRequestSize = 1_000_000;
    cfg.router.ignoreTrailingSlashes = true;
    cfg.staticFiles.add(s -> {
      s.hostedPath = "/";
      s.directory = "/web";
      s.location = Location.CLASSPATH;
      s.headers = Map.of(
          "Cache-Control", "no-cache",
          // Styles may be inline: xterm.js sizes and colours its rows with <style> elements and
          // style attributes (truecolour cells). Scripts stay 'self' only (ADR 0017).
          "Content-Security-Policy",
          "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; connect-src 'self' ws: wss:;"
              + " frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
          "X-Content-Type-Options", "nosniff");
    });
    cfg.jetty.modifyServer(server -> server.setErrorHandler(new JsonErrorPage()));
    cfg.events.handlerAdded(meta -> {
      if (meta.getHttpMethod().isHttpMethod()) {
        routes.add(new Route(meta.getHttpMethod().name(), meta.getPath()));
      }
    });
    cfg.events.wsHandlerAdded(meta -> {
      if (meta.getHandlerType() == io.javalin.websocket.WsHandlerType.WEBSOCKET) {
        routes.add(new Route("WEBSOCKET", meta.getPath()));
      }
    });

    var r = cfg.routes;
    // Every request, static files and unknown paths included, passes the guard before anything
    // is looked up; WebSocket upgrades have their own hook.
    r.before(this::guard);
    r.wsBeforeUpgrade("/ws/*", this::guard);

    r.exception(ServeException.class, (e, ctx) -> refuse(ctx, e));
    r.exception(HttpResponseException.class, (e, ctx) -> fail(ctx, translate(e)));
    // A path built from a request (a folder, a file name) that no file system can hold is the
    // caller's mistake, wherever it is met: a 400, not a 500.
    r.exception(java.nio.file.InvalidPathException.class, (e, ctx) -> fail(ctx, ServeException.badRequest(
        "a path in the request cannot be a file name (it contains a NUL byte or another character no path can hold)")));
    r.exception(Exception.class, (e, ctx) -> {
      LOG.error("unexpected failure on {} {}", ctx.method(), ctx.path(), e);
      fail(ctx, new ServeException(ServeException.Reason.INTERNAL, "internal error; see the server log"));
    });
    r.error(404, ctx -> {
      if (ctx.result() == null || ctx.result().isEmpty() || !isJson(ctx)) {
        fail(ctx, ServeException.notFound("no such path: " + ctx.method() + " " + ctx.path()));
      }
    });
    r.error(405, ctx -> fail(ctx, new ServeException(ServeException.Reason.METHOD_NOT_ALLOWED,
        ctx.method() + " is not allowed on " + ctx.path())));

    r.get("/openapi.json", ctx -> ctx.contentType("application/json").result(OpenApiDocument.bytes()));
    r.ws("/ws/events", ws -> {
      ws.onConnect(ctx -> {
        ctx.enableAutomaticPings();
        events.join(ctx);
        EventHub.sendTo(ctx, Json.write(new ServerEvent.Hello(dev.agentdesk.app.AppVersion.current(), guard.tokenRequired())));
        for (ApiArea area : areas) {
          if (area instanceof EventSnapshot snap) {
            snap.snapshot().forEach(ev -> EventHub.sendTo(ctx, Json.write(ev)));
          }
        }
      });
      ws.onClose(ctx -> events.leave(ctx));
      ws.onError(ctx -> events.leave(ctx));
    });
    for (ApiArea area : areas) {
      area.routes(r);
      if (area instanceof ServletArea servletArea) {
        cfg.jetty.modifyServletContextHandler(handler -> mount(handler, servletArea));
      }
    }
  }

  /**
   * Mounts an area's own servlet (the MCP endpoint) beside Javalin's, behind the same guard: the
   * filter runs the checks every Javalin route gets before anything reaches the servlet.
   */
  private void mount(ServletContextHandler handler, ServletArea area) {
    ServletHolder servlet = new ServletHolder(area.getClass().getSimpleName(), area.servlet());
    servlet.setAsyncSupported(true);
    handler.addServlet(servlet, area.servletPath());
    FilterHolder filter = new FilterHolder(new GuardFilter());
    filter.setAsyncSupported(true);
    handler.addFilter(filter, area.servletPath(), EnumSet.of(DispatcherType.REQUEST));
  }

  /** The access guard for requests that do not pass through Javalin. */
  private final class GuardFilter implements Filter {
    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
        throws IOException, ServletException {
      HttpServletRequest req = (HttpServletRequest) request;
      HttpServletResponse res = (HttpServletResponse) response;
      res.setHeader("X-Frame-Options", "DENY");
      res.setHeader("Cross-Origin-Resource-Policy", "same-origin");
      String cookie = null;
      if (req.getCookies() != null) {
        for (Cookie c : req.getCookies()) {
          if (c.getName().equals(guard.cookieName())) {
            cookie = c.getValue();
          }
        }
      }
      try {
        guard.check(new AccessGuard.Request(req.getMethod(), req.getRequestURI(), req.getHeader("Host"),
            req.getHeader("Origin"), req.getHeader("Authorization"), cookie, queryToken(req.getQueryString()),
            isUpgrade(req.getHeader("Upgrade")), req.getContentType(),
            hasBody(req.getContentLengthLong(), req.getHeader("Transfer-Encoding"))));
      } catch (ServeException e) {
        if (e.reason() == ServeException.Reason.UNAUTHORIZED) {
          res.setHeader("WWW-Authenticate", "Bearer realm=\"agentdesk\"");
        }
        res.setStatus(e.reason().status());
        res.setContentType("application/json");
        res.getOutputStream().write(Json.write(ErrorBody.of(e)).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return;
      }
      chain.doFilter(request, response);
    }
  }

  /** The {@code token} query parameter, read without touching the body (an MCP POST is JSON). */
  private static String queryToken(String rawQuery) {
    if (rawQuery == null) {
      return null;
    }
    for (String part : rawQuery.split("&")) {
      if (part.startsWith("token=")) {
        return java.net.URLDecoder.decode(part.substring(6), java.nio.charset.StandardCharsets.UTF_8);
      }
    }
    return null;
  }

  private static boolean isUpgrade(String upgradeHeader) {
    return upgradeHeader != null && upgradeHeader.toLowerCase(java.util.Locale.ROOT).contains("websocket");
  }

  private static boolean hasBody(long contentLength, String transferEncoding) {
    return contentLength > 0 || transferEncoding != null && !transferEncoding.isBlank();
  }

  private static boolean isJson(Context ctx) {
    String ct = ctx.res().getContentType();
    return ct != null && ct.startsWith("application/json");
  }

  private void guard(Context ctx) {
    // On every answer, refusals included: no other site may frame a page of this server
    // (clickjacking) or take any of its responses into its own page (an <img> or <script> of ours
    // carries the cookie; CORP keeps what comes back out of the other page's process).
    ctx.header("X-Frame-Options", "DENY");
    ctx.header("Cross-Origin-Resource-Policy", "same-origin");
    AccessGuard.Verdict verdict = guard.check(new AccessGuard.Request(ctx.method().name(), ctx.path(),
        ctx.header("Host"), ctx.header("Origin"), ctx.header("Authorization"), ctx.cookie(guard.cookieName()),
        ctx.queryParam("token"), isUpgrade(ctx.header("Upgrade")), ctx.header("Content-Type"),
        hasBody(ctx.req().getContentLengthLong(), ctx.header("Transfer-Encoding"))));
    if (verdict instanceof AccessGuard.Verdict.SignIn signIn) {
      ctx.header("Set-Cookie", signIn.setCookieHeader());
      ctx.header("Cache-Control", "no-store");
      ctx.header("Referrer-Policy", "no-referrer");
      ctx.redirect(AccessGuard.withoutToken(ctx.path(), ctx.queryString()), HttpStatus.SEE_OTHER);
    }
  }

  /** A refused page request gets the sign-in page; everything else the JSON error. */
  private void refuse(Context ctx, ServeException e) {
    if (e.reason() == ServeException.Reason.UNAUTHORIZED && !AccessGuard.isApi(ctx.path())
        && !ctx.path().endsWith(".json")) {
      ctx.status(401)
          .header("WWW-Authenticate", "Bearer realm=\"agentdesk\"")
          .header("Content-Security-Policy", SignInPage.CSP)
          .header("Cache-Control", "no-store")
          .header("Referrer-Policy", "no-referrer")
          .header("X-Content-Type-Options", "nosniff")
          .contentType("text/html; charset=utf-8")
          .result(SignInPage.html(e.getMessage(), ctx.path(), guard.tokenFile()));
      return;
    }
    fail(ctx, e);
  }

  static void fail(Context ctx, ServeException e) {
    if (e.reason() == ServeException.Reason.UNAUTHORIZED) {
      ctx.header("WWW-Authenticate", "Bearer realm=\"agentdesk\"");
    }
    ctx.status(e.reason().status()).json(ErrorBody.of(e));
  }

  private static ServeException translate(HttpResponseException e) {
    for (ServeException.Reason reason : ServeException.Reason.values()) {
      if (reason.status() == e.getStatus()) {
        return new ServeException(reason, e.getMessage());
      }
    }
    HttpStatus status = HttpStatus.forStatus(e.getStatus());
    return new ServeException(e.getStatus() < 500 ? ServeException.Reason.BAD_REQUEST : ServeException.Reason.INTERNAL,
        status.getMessage());
  }

  /** Sends one JSON message to a WebSocket client, serialised with the server's mapper, in order. */
  public static void send(WsContext client, Object message) {
    EventHub.sendTo(client, Json.write(message));
  }

  /** Sends one binary message (a terminal's raw bytes) to a WebSocket client, in order with the rest. */
  public static void sendBinary(WsContext client, byte[] bytes) {
    try {
      WsOutbox.sendBinary(client.session, bytes);
    } catch (RuntimeException e) {
      LOG.debug("dropping a websocket message to {}: {}", client.sessionId(), e.toString());
    }
  }

  /** Forgets the outgoing queue of a client that has gone. */
  public static void forget(WsContext client) {
    WsOutbox.forget(client.session);
  }

  /** Stops listening, then closes every area (terminals killed, database closed). Idempotent. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      app.stop();
    } catch (RuntimeException e) {
      LOG.warn("stopping the HTTP server: {}", e.toString());
    }
    List<ApiArea> reversed = new ArrayList<>(areas);
    Collections.reverse(reversed);
    for (ApiArea area : reversed) {
      try {
        area.close();
      } catch (Exception e) {
        LOG.warn("closing {}: {}", area.getClass().getSimpleName(), e.toString());
      }
    }
  }
}
