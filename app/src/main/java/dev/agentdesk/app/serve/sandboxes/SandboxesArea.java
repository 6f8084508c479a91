package dev.agentdesk.app.serve.sandboxes;

import dev.agentdesk.aci.AciClientException;
import dev.agentdesk.aci.client.AciClient;
import dev.agentdesk.aci.client.AciClientOptions;
import dev.agentdesk.aci.client.ScreenSize;
import dev.agentdesk.aci.client.Screenshot;
import dev.agentdesk.aci.wire.ExecResult;
import dev.agentdesk.aci.wire.ImageFormat;
import dev.agentdesk.aci.wire.ObservationMsg;
import dev.agentdesk.aci.wire.ObserveSpec;
import dev.agentdesk.aci.wire.PointerButton;
import dev.agentdesk.aci.wire.Target;
import dev.agentdesk.app.serve.ApiArea;
import dev.agentdesk.app.serve.EventHub;
import dev.agentdesk.app.serve.Json;
import dev.agentdesk.app.serve.ServeException;
import dev.agentdesk.app.serve.ServerEvent;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Sandboxes: ACI v0 runtimes registered by URL and token, reached through the aci module's client
 * SDK. A screenshot and an action are one call each; a dropped session is reopened once on the
 * next call, so a restarted runtime comes back without re-registering it.
 */
public final class SandboxesArea implements ApiArea {
  static final int MAX_SANDBOXES = 32;
  /** The largest settle_ms an observe takes: the runtime caps its whole settle wait at 3 s. */
  static final int MAX_SETTLE_MS = 3000;
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  static final Duration CALL_TIMEOUT = Duration.ofSeconds(15);

  private final EventHub events;
  private final Map<String, Sandbox> sandboxes = new ConcurrentHashMap<>();
  private final LiveViewSocket liveView = new LiveViewSocket(this);

  public SandboxesArea(EventHub events) {
    this.events = events;
  }

  /**
   * The body of {@code POST /api/sandboxes}. {@code id} is optional: {@code agentdesk sandbox start}
   * passes its own, so that scripts find the sandbox under the same id locally and here.
   */
  public record NewSandbox(String url, String token, String name, String id) {
    public NewSandbox(String url, String token, String name) {
      this(url, token, name, null);
    }

    public NewSandbox {
      if (id != null && !id.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,39}")) {
        throw new IllegalArgumentException("id must be 1-40 letters, digits, '.', '_' or '-', got '" + id + "'");
      }
      if (url == null || url.isBlank()) {
        throw new IllegalArgumentException("url is required, e.g. ws://127.0.0.1:7421");
      }
      URI u;
      try {
        u = URI.create(url.trim());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("url is not a URL: " + url);
      }
      String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("ws") && !scheme.equals("wss") || u.getHost() == null) {
        throw new IllegalArgumentException("url must be ws://HOST:PORT or wss://HOST:PORT, got " + url);
      }
      url = url.trim();
      if (name != null && name.length() > 100) {
        throw new IllegalArgumentException("name is longer than 100 characters");
      }
    }
  }

  /**
   * A UI action: what the dashboard's live view and the MCP tool sandbox_act send. Pointer verbs
   * take x/y (screen pixels) or {@code ref}, an element ref from the last {@code observe}.
   */
  public record ActBody(String verb, Double x, Double y, Double to_x, Double to_y, Double dx, Double dy, String text,
      String key, String button, String ref, Boolean paste) {}

  /** {@code viewers}: browsers watching the live view; {@code streaming}: whether its screencast runs. */
  public record SandboxJson(String id, String name, String url, String platform, Map<String, Long> screen, boolean connected,
      String added_at, int viewers, boolean streaming) {}

  private final class Sandbox {
    final String id;
    final String name;
    final String url;
    final String token;
    final Instant addedAt = Instant.now();
    final ScreenFeed feed;
    private AciClient client;
    private String platform;
    private ScreenSize screen;

    Sandbox(String id, String name, String url, String token) {
      this.id = id;
      this.name = name;
      this.url = url;
      this.token = token;
      this.feed = new ScreenFeed(id, url, () -> open(true));
    }

    /** A new session; the live view's carries binary frames (no base64 between runtime and server). */
    AciClient open(boolean binaryFrames) {
      AciClientOptions options = AciClientOptions.defaults()
          .withClient("agentdesk-serve", dev.agentdesk.app.AppVersion.current())
          .withConnectTimeout(CONNECT_TIMEOUT)
          .withCallTimeout(CALL_TIMEOUT)
          .withBinaryFrames(binaryFrames);
      if (token != null && !token.isEmpty()) {
        options = options.withToken(token);
      }
      return AciClient.connect(URI.create(url), options);
    }

    synchronized void connect() {
      client = open(false);
      platform = client.platform().wire();
      screen = client.screenSize();
    }

    /** Runs a call on the session, reopening it once if the runtime dropped it. */
    synchronized <T> T call(Function<AciClient, T> f) {
      if (client == null || !client.isOpen()) {
        connect();
      }
      try {
        return f.apply(client);
      } catch (AciClientException e) {
        if (e.reason() != AciClientException.Reason.CLOSED) {
          throw e;
        }
        connect();
        return f.apply(client);
      }
    }

    synchronized SandboxJson json() {
      return new SandboxJson(id, name, url, platform,
          screen == null ? null : Map.of("width", screen.w(), "height", screen.h()),
          client != null && client.isOpen(), addedAt.toString(), feed.viewerCount(), feed.streaming());
    }

    void close() {
      feed.close("this sandbox was removed from the dashboard");
      synchronized (this) {
        if (client != null) {
          client.close();
        }
      }
    }
  }

  @Override
  public void routes(RoutesConfig r) {
    r.get("/api/sandboxes", ctx -> ctx.json(list()));
    r.post("/api/sandboxes", ctx -> ctx.status(201).json(add(Json.read(ctx.body(), NewSandbox.class))));
    r.get("/api/sandboxes/{id}", ctx -> ctx.json(get(ctx.pathParam("id")).json()));
    r.delete("/api/sandboxes/{id}", ctx -> {
      Sandbox s = get(ctx.pathParam("id"));
      sandboxes.remove(s.id);
      s.close();
      events.publish(new ServerEvent.SandboxesChanged());
      ctx.status(204);
    });
    r.get("/api/sandboxes/{id}/screenshot", this::screenshot);
    r.post("/api/sandboxes/{id}/act", ctx -> ctx.json(act(ctx.pathParam("id"), Json.read(ctx.body(), ActBody.class))));
    r.get("/api/sandboxes/{id}/observe", ctx -> ctx.json(observe(ctx.pathParam("id"),
        "true".equals(ctx.queryParam("diff")), optionalInt(ctx, "settle_ms", 0, MAX_SETTLE_MS))));
    r.post("/api/sandboxes/{id}/exec", ctx -> ctx.json(exec(ctx.pathParam("id"),
        Json.read(ctx.body(), ExecBody.class).argv())));
    liveView.routes(r);
  }

  /** The body of {@code POST /api/sandboxes/{id}/exec}. */
  record ExecBody(List<String> argv) {
    ExecBody {
      if (argv == null || argv.isEmpty() || argv.get(0) == null || argv.get(0).isBlank()) {
        throw new IllegalArgumentException("argv must name the program to run, e.g. [\"ls\", \"-l\"]");
      }
      for (String a : argv) {
        if (a == null) {
          throw new IllegalArgumentException("argv must not contain null");
        }
      }
      argv = List.copyOf(argv);
    }
  }

  // ---- the same calls for in-process callers (the MCP tools); each throws ServeException ----

  /** Every sandbox, oldest first. */
  public List<SandboxJson> list() {
    List<Sandbox> all = new ArrayList<>(sandboxes.values());
    all.sort(Comparator.comparing(s -> s.addedAt));
    return all.stream().map(Sandbox::json).toList();
  }

  private SandboxJson add(NewSandbox req) {
    if (sandboxes.size() >= MAX_SANDBOXES) {
      throw new ServeException(ServeException.Reason.CONFLICT, "already " + MAX_SANDBOXES + " sandboxes; remove one first");
    }
    String id = req.id() != null ? req.id() : UUID.randomUUID().toString().substring(0, 8);
    if (sandboxes.containsKey(id)) {
      throw new ServeException(ServeException.Reason.CONFLICT, "a sandbox with id " + id + " is registered already");
    }
    String name = req.name() == null || req.name().isBlank() ? URI.create(req.url()).getAuthority() : req.name().trim();
    Sandbox s = new Sandbox(id, name, req.url(), req.token());
    try {
      s.connect();
    } catch (AciClientException e) {
      throw upstream(e);
    }
    if (sandboxes.putIfAbsent(id, s) != null) {
      s.close();
      throw new ServeException(ServeException.Reason.CONFLICT, "a sandbox with id " + id + " is registered already");
    }
    events.publish(new ServerEvent.SandboxesChanged());
    return s.json();
  }

  /** The live screen of a sandbox (404 when there is none). */
  ScreenFeed feed(String id) {
    return get(id).feed;
  }

  private Sandbox get(String id) {
    Sandbox s = sandboxes.get(id);
    if (s == null) {
      throw ServeException.notFound("no sandbox " + id);
    }
    return s;
  }

  private void screenshot(Context ctx) {
    String format = ctx.queryParamAsClass("format", String.class).getOrDefault("png").toLowerCase(Locale.ROOT);
    Image shot = screenshot(ctx.pathParam("id"), format, optionalInt(ctx, "quality", 1, 100),
        optionalInt(ctx, "max_long_edge", 16, 16384));
    ctx.header("Cache-Control", "no-store").contentType(shot.mimeType()).result(shot.bytes());
  }

  /** An encoded screenshot and its media type. */
  public record Image(byte[] bytes, String mimeType) {}

  /** {@code GET /api/sandboxes/{id}/screenshot}: format png or jpeg; quality (jpeg) and max_long_edge optional. */
  public Image screenshot(String id, String format, Integer quality, Integer maxEdge) {
    Sandbox s = get(id);
    ImageFormat f = switch (format) {
      case "png" -> ImageFormat.PNG;
      case "jpeg", "jpg" -> ImageFormat.JPEG;
      default -> throw ServeException.badRequest("format must be png or jpeg, got '" + format + "'");
    };
    if (quality != null && f != ImageFormat.JPEG) {
      throw ServeException.badRequest("quality applies to jpeg only");
    }
    if (maxEdge != null && (maxEdge < 16 || maxEdge > 16384)) {
      throw ServeException.badRequest("max_long_edge must be between 16 and 16384");
    }
    Screenshot shot = guard(() -> s.call(c -> c.screenshot(new ObserveSpec(null, f, quality, maxEdge))));
    return new Image(shot.image(), f == ImageFormat.JPEG ? "image/jpeg" : "image/png");
  }

  /**
   * {@code GET /api/sandboxes/{id}/observe}: the accessibility tree as text ({@code tree_text}),
   * whole or, with {@code diff}, against the runtime's last observation; with {@code settleMs} the
   * runtime first waits until the accessibility events have been quiet that long (the tree after an
   * action, not halfway through it), null for none.
   */
  public Map<String, Object> observe(String id, boolean diff, Integer settleMs) {
    Sandbox s = get(id);
    Long settle = settleMs == null ? null : settleMs.longValue();
    ObservationMsg o = guard(() -> s.call(c -> c.observe(diff ? Boolean.TRUE : null, settle)));
    Map<String, Object> out = new java.util.LinkedHashMap<>();
    out.put("tree_text", o.treeText() == null ? "" : o.treeText());
    out.put("revision", o.revision());
    out.put("diff_of", o.diffOf());
    out.put("node_count", o.nodeCount());
    out.put("focus", o.focus());
    return out;
  }

  /** {@code POST /api/sandboxes/{id}/exec}: runs argv in the sandbox where its runtime offers exec. */
  public Map<String, Object> exec(String id, List<String> argv) {
    Sandbox s = get(id);
    List<String> checked = new ExecBody(argv).argv();
    ExecResult r = guard(() -> s.call(c -> c.exec(checked)));
    Map<String, Object> out = new java.util.LinkedHashMap<>();
    out.put("exit_code", r.exitCode());
    out.put("signal", r.signal());
    out.put("timed_out", r.timedOut());
    out.put("stdout", r.stdout());
    out.put("stderr", r.stderr());
    out.put("stdout_truncated", r.stdoutTruncated());
    out.put("stderr_truncated", r.stderrTruncated());
    out.put("duration_ms", r.durationMs());
    return out;
  }

  /** {@code POST /api/sandboxes/{id}/act}: one UI action. */
  public Map<String, Object> act(String id, ActBody b) {
    Sandbox s = get(id);
    String verb = b.verb() == null ? "" : b.verb();
    Function<AciClient, Object> call = switch (verb) {
      case "click" -> c -> c.click(target(b));
      case "double_click" -> c -> c.doubleClick(target(b));
      case "right_click" -> c -> c.rightClick(target(b));
      case "move" -> c -> c.move(target(b));
      case "drag" -> c -> c.drag(point(b.x(), b.y()), point(b.to_x(), b.to_y()), button(b.button()), null);
      // A drag from the live view: press, moves, release, each as the user makes it.
      case "mouse_down" -> c -> c.mouseDown(point(b.x(), b.y()), button(b.button()));
      case "mouse_up" -> c -> c.mouseUp(point(b.x(), b.y()), button(b.button()));
      case "clipboard_set" -> {
        if (b.text() == null) {
          throw ServeException.badRequest("clipboard_set needs text");
        }
        // paste: then ctrl+v, what a paste into the focused application takes on most desktops.
        boolean paste = Boolean.TRUE.equals(b.paste());
        yield c -> {
          c.clipboardSet(b.text());
          return paste ? c.key("ctrl+v") : null;
        };
      }
      case "scroll" -> c -> c.scroll(point(b.x(), b.y()), require(b.dx(), "dx"), require(b.dy(), "dy"));
      case "type" -> {
        if (b.text() == null || b.text().isEmpty()) {
          throw ServeException.badRequest("type needs text");
        }
        yield c -> c.typeText(b.text());
      }
      case "key" -> {
        if (b.key() == null || b.key().isBlank()) {
          throw ServeException.badRequest("key needs a key combo, e.g. ctrl+c");
        }
        yield c -> c.key(b.key());
      }
      default -> throw ServeException.badRequest(
          "verb must be click, double_click, right_click, move, drag, mouse_down, mouse_up, scroll, type, key or "
              + "clipboard_set, got '" + verb + "'");
    };
    if (b.paste() != null && !verb.equals("clipboard_set")) {
      throw ServeException.badRequest("paste applies to clipboard_set, not " + verb);
    }
    // Coordinates (or the ref) are checked before anything is sent.
    if (!verb.equals("type") && !verb.equals("key") && !verb.equals("clipboard_set")) {
      target(b);
    }
    if (b.ref() != null && !REF_VERBS.contains(verb)) {
      throw ServeException.badRequest("ref applies to click, double_click, right_click and move, not " + verb);
    }
    guard(() -> s.call(call));
    return Map.of("ok", true, "verb", verb);
  }

  private static final java.util.Set<String> REF_VERBS = java.util.Set.of("click", "double_click", "right_click", "move");

  /** x/y, or an element ref of the last observe on this sandbox's session. */
  private static Target target(ActBody b) {
    if (b.ref() == null || !REF_VERBS.contains(b.verb())) {
      return point(b.x(), b.y());
    }
    if (b.x() != null || b.y() != null) {
      throw ServeException.badRequest("give x and y or ref, not both");
    }
    if (!b.ref().matches("e[0-9]{1,9}")) {
      throw ServeException.badRequest("ref must be an element ref from observe, like e12; got '" + b.ref() + "'");
    }
    return new Target.ElementRef(b.ref());
  }

  private static Target point(Double x, Double y) {
    if (x == null || y == null) {
      throw ServeException.badRequest("this verb needs x and y (screen pixels)");
    }
    if (x < 0 || y < 0 || x.isNaN() || y.isNaN() || x.isInfinite() || y.isInfinite()) {
      throw ServeException.badRequest("x and y must be non-negative pixel coordinates");
    }
    return new Target.PointPx(x, y);
  }

  private static double require(Double v, String name) {
    if (v == null || v.isNaN() || v.isInfinite()) {
      throw ServeException.badRequest("scroll needs " + name);
    }
    return v;
  }

  private static PointerButton button(String name) {
    if (name == null || name.isBlank()) {
      return null;
    }
    for (PointerButton p : PointerButton.values()) {
      if (p.wire().equalsIgnoreCase(name)) {
        return p;
      }
    }
    throw ServeException.badRequest("unknown button '" + name + "'");
  }

  private static Integer optionalInt(Context ctx, String name, int min, int max) {
    String raw = ctx.queryParam(name);
    if (raw == null || raw.isBlank()) {
      return null;
    }
    try {
      int v = Integer.parseInt(raw.trim());
      if (v < min || v > max) {
        throw ServeException.badRequest(name + " must be between " + min + " and " + max);
      }
      return v;
    } catch (NumberFormatException e) {
      throw ServeException.badRequest(name + " must be a whole number, got '" + raw + "'");
    }
  }

  private static <T> T guard(java.util.function.Supplier<T> call) {
    try {
      return call.get();
    } catch (AciClientException e) {
      throw upstream(e);
    } catch (IllegalArgumentException e) {
      throw ServeException.badRequest(e.getMessage());
    }
  }

  private static ServeException upstream(AciClientException e) {
    ServeException.Reason reason = switch (e.reason()) {
      case NOT_ADVERTISED -> ServeException.Reason.CONFLICT;
      case REMOTE_ERROR -> ServeException.Reason.UPSTREAM_FAILED;
      default -> ServeException.Reason.UPSTREAM_FAILED;
    };
    return new ServeException(reason, "sandbox: " + e.getMessage(), e);
  }

  @Override
  public void close() {
    liveView.close();
    for (Sandbox s : sandboxes.values()) {
      try {
        s.close();
      } catch (RuntimeException e) {
        // Closing the others matters more than reporting this one.
      }
    }
    sandboxes.clear();
  }
}
