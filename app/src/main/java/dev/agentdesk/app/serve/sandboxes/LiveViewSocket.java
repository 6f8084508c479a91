package dev.agentdesk.app.serve.sandboxes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.app.serve.Json;
import dev.agentdesk.app.serve.ServeException;
import io.javalin.config.RoutesConfig;
import io.javalin.websocket.WsContext;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code /ws/sandboxes/{id}/screen}: a sandbox's live screen for the dashboard. The server sends
 * {@code {"type":"state",…}} text messages and the screen as binary {@link ScreenPatch} messages;
 * the browser sends {@code {"type":"act", …}} (the body of {@code POST /api/sandboxes/{id}/act},
 * with an optional {@code id} echoed in the reply) and {@code {"type":"keyframe"}} (send the whole
 * picture again). A bad message gets {@code {"type":"error","code","message"}} and the stream goes
 * on. {@code ?lossless=1} asks for exact frames only (no jpeg for large changes, see
 * {@link LargeChanges}). The access guard of every {@code /ws} path (token or cookie, Origin, Host) runs before the
 * upgrade; an unknown sandbox is a 404 there.
 */
final class LiveViewSocket {
  static final String PATH = "/ws/sandboxes/{id}/screen";
  /**
   * Longer messages get an error and are not read further; an act body is a few hundred bytes,
   * typed text aside. Below Jetty's own limit (64 KiB), which closes the socket instead (1009).
   */
  static final int MAX_MESSAGE = 32 * 1024;

  private final SandboxesArea area;
  private final Map<String, Viewer> viewers = new ConcurrentHashMap<>();

  private record Viewer(ScreenFeed feed, ViewerOutbox outbox) {}

  LiveViewSocket(SandboxesArea area) {
    this.area = area;
  }

  void routes(RoutesConfig r) {
    r.wsBeforeUpgrade(PATH, ctx -> area.feed(ctx.pathParam("id")));
    r.ws(PATH, ws -> {
      ws.onConnect(ctx -> {
        ScreenFeed feed;
        try {
          feed = area.feed(ctx.pathParam("id"));
        } catch (ServeException e) {
          ctx.closeSession(4404, "no such sandbox");
          return;
        }
        ctx.enableAutomaticPings();
        // ?lossless=1: exact frames only, large changes as png too (tests, pixel checks, benchmarks).
        boolean lossless = "1".equals(ctx.queryParam("lossless")) || "true".equals(ctx.queryParam("lossless"));
        Viewer v = new Viewer(feed, new ViewerOutbox(ViewerOutbox.jetty(ctx.session), lossless));
        viewers.put(ctx.sessionId(), v);
        feed.join(v.outbox());
      });
      ws.onMessage(ctx -> onText(ctx, ctx.message()));
      ws.onBinaryMessage(ctx -> reply(ctx, null, ServeException.badRequest(
          "this socket takes JSON text messages ({\"type\":\"act\",…} or {\"type\":\"keyframe\"}), not binary")));
      ws.onClose(this::leave);
      ws.onError(this::leave);
    });
  }

  private void leave(WsContext ctx) {
    Viewer v = viewers.remove(ctx.sessionId());
    if (v != null) {
      v.feed().leave(v.outbox());
    }
  }

  private void onText(WsContext ctx, String text) {
    Viewer v = viewers.get(ctx.sessionId());
    if (v == null) {
      return;
    }
    String id = null;
    try {
      if (text.length() > MAX_MESSAGE) {
        throw new ServeException(ServeException.Reason.PAYLOAD_TOO_LARGE,
            "a message on this socket is at most " + MAX_MESSAGE + " characters");
      }
      JsonNode m = parse(text);
      id = m.path("id").isTextual() ? m.path("id").textValue() : null;
      String type = m.path("type").isTextual() ? m.path("type").textValue() : "";
      switch (type) {
        case "act" -> {
          ObjectNode body = ((ObjectNode) m).deepCopy();
          body.remove("type");
          body.remove("id");
          SandboxesArea.ActBody act = Json.read(body.toString(), SandboxesArea.ActBody.class);
          Map<String, Object> result = area.act(ctx.pathParam("id"), act);
          Map<String, Object> out = new LinkedHashMap<>();
          out.put("type", "acted");
          out.put("id", id);
          out.putAll(result);
          v.outbox().text(Json.write(out));
        }
        case "keyframe" -> v.feed().resend(v.outbox());
        default -> throw ServeException.badRequest("type must be act or keyframe, got '" + type + "'");
      }
    } catch (ServeException e) {
      reply(ctx, id, e);
    }
  }

  private static JsonNode parse(String text) {
    JsonNode m;
    try {
      m = Json.MAPPER.readTree(text);
    } catch (java.io.IOException e) {
      throw new ServeException(ServeException.Reason.INVALID_JSON, "the message is not valid JSON");
    }
    if (m == null || !m.isObject()) {
      throw new ServeException(ServeException.Reason.INVALID_JSON, "the message must be a JSON object");
    }
    return m;
  }

  private void reply(WsContext ctx, String id, ServeException e) {
    Viewer v = viewers.get(ctx.sessionId());
    if (v == null) {
      return;
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("type", "error");
    out.put("id", id);
    out.put("code", e.reason().code());
    out.put("message", e.getMessage());
    v.outbox().text(Json.write(out));
  }

  /** The server stops: every viewer's outbox stops sending. */
  void close() {
    viewers.values().forEach(v -> v.outbox().close());
    viewers.clear();
  }
}
