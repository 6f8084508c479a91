package dev.agentdesk.aci.recording;

import io.javalin.Javalin;
import io.javalin.websocket.WsContext;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A recording proxy in front of any ACI runtime: each client that connects gets its own upstream
 * connection to the runtime, every message is forwarded unchanged both ways and recorded. A client
 * connection whose upstream cannot be opened is closed with the reason.
 */
public final class RecordingProxy implements AutoCloseable {
  private static final Duration CONNECT = Duration.ofSeconds(10);

  private final Javalin app;
  private final RecordingWriter writer;
  private final URI upstream;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(CONNECT).build();
  private final Map<String, Link> links = new ConcurrentHashMap<>();

  /** One client connection and its upstream; sends to the runtime are serialised (one at a time). */
  private final class Link implements WebSocket.Listener {
    final int conn;
    final WsContext client;
    WebSocket runtime;
    private final StringBuilder text = new StringBuilder();
    private final ByteArrayOutputStream bin = new ByteArrayOutputStream();

    Link(int conn, WsContext client) {
      this.conn = conn;
      this.client = client;
    }

    synchronized void toRuntime(String message) {
      writer.text(conn, Direction.CLIENT_TO_RUNTIME, message);
      runtime.sendText(message, true).join();
    }

    synchronized void toRuntime(byte[] message) {
      writer.binary(conn, Direction.CLIENT_TO_RUNTIME, message);
      runtime.sendBinary(ByteBuffer.wrap(message), true).join();
    }

    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
      text.append(data);
      if (last) {
        String m = text.toString();
        text.setLength(0);
        writer.text(conn, Direction.RUNTIME_TO_CLIENT, m);
        client.send(m);
      }
      ws.request(1);
      return null;
    }

    @Override
    public CompletionStage<?> onBinary(WebSocket ws, ByteBuffer data, boolean last) {
      byte[] chunk = new byte[data.remaining()];
      data.get(chunk);
      bin.writeBytes(chunk);
      if (last) {
        byte[] m = bin.toByteArray();
        bin.reset();
        writer.binary(conn, Direction.RUNTIME_TO_CLIENT, m);
        client.send(ByteBuffer.wrap(m));
      }
      ws.request(1);
      return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket ws, int status, String reason) {
      client.closeSession(status, reason);
      return null;
    }

    @Override
    public void onError(WebSocket ws, Throwable error) {
      client.closeSession(1011, "runtime connection failed: " + error.getMessage());
    }
  }

  private RecordingProxy(URI upstream, RecordingWriter writer) {
    this.upstream = upstream;
    this.writer = writer;
    this.app = Javalin.create(cfg -> {
      cfg.startup.showJavalinBanner = false;
      cfg.jetty.modifyWebSocketServletFactory(f -> {
        f.setMaxTextMessageSize(64L << 20);
        f.setMaxBinaryMessageSize(64L << 20);
        f.setMaxFrameSize(64L << 20);
        f.setIdleTimeout(Duration.ofMinutes(16));
      });
      cfg.routes.ws("/", ws -> {
        ws.onConnect(this::opened);
        ws.onMessage(ctx -> {
          Link l = links.get(ctx.sessionId());
          if (l != null) {
            l.toRuntime(ctx.message());
          }
        });
        ws.onBinaryMessage(ctx -> {
          Link l = links.get(ctx.sessionId());
          if (l != null) {
            byte[] b = new byte[ctx.data().remaining()];
            ctx.data().get(b);
            l.toRuntime(b);
          }
        });
        ws.onClose(ctx -> closed(ctx.sessionId()));
        ws.onError(ctx -> closed(ctx.sessionId()));
      });
    });
  }

  /** Listens on {@code host:port} (0 for any free port) and records into {@code writer}. */
  public static RecordingProxy start(String host, int port, URI upstream, RecordingWriter writer) {
    RecordingProxy p = new RecordingProxy(upstream, writer);
    p.app.start(host, port);
    return p;
  }

  private void opened(WsContext ctx) {
    ctx.session.setIdleTimeout(Duration.ofMinutes(16));
    Link l = new Link(writer.connectionOpened(), ctx);
    try {
      l.runtime = http.newWebSocketBuilder().connectTimeout(CONNECT).buildAsync(upstream, l)
          .get(CONNECT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Exception e) {
      writer.connectionClosed(l.conn);
      ctx.closeSession(1011, "cannot reach the runtime at " + upstream);
      return;
    }
    links.put(ctx.sessionId(), l);
  }

  private void closed(String id) {
    Link l = links.remove(id);
    if (l != null) {
      writer.connectionClosed(l.conn);
      l.runtime.sendClose(WebSocket.NORMAL_CLOSURE, "client left").exceptionally(e -> null);
    }
  }

  public int port() {
    return app.port();
  }

  @Override
  public void close() {
    for (String id : links.keySet()) {
      closed(id);
    }
    app.stop();

  }

}
