package dev.agentdesk.app.serve;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/** A JDK WebSocket client that queues every text message as JSON, for API tests. */
public final class WsClient implements AutoCloseable {
  private final BlockingQueue<JsonNode> queue;
  private final WebSocket socket;

  private WsClient(WebSocket socket, BlockingQueue<JsonNode> queue) {
    this.socket = socket;
    this.queue = queue;
  }

  /** Connects without any credentials. */
  public static WsClient connect(String url) {
    return connect(url, java.util.Map.of());
  }

  /** Connects with the given request headers (e.g. {@code Authorization}, {@code Cookie}). */
  public static WsClient connect(String url, java.util.Map<String, String> headers) {
    BlockingQueue<JsonNode> q = new LinkedBlockingQueue<>();
    WebSocket.Builder builder = HttpClient.newHttpClient().newWebSocketBuilder()
        .connectTimeout(Duration.ofSeconds(5));
    headers.forEach(builder::header);
    WebSocket ws = builder
        .buildAsync(URI.create(url), new WebSocket.Listener() {
          private final StringBuilder partial = new StringBuilder();

          @Override
          public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
              try {
                q.add(Json.MAPPER.readTree(partial.toString()));
              } catch (IOException e) {
                throw new AssertionError(e);
              }
              partial.setLength(0);
            }
            webSocket.request(1);
            return null;
          }
        }).join();
    return new WsClient(ws, q);
  }

  /** The next message matching {@code p}, skipping others; fails after {@code seconds}. */
  public JsonNode await(Predicate<JsonNode> p, int seconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (true) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError("no matching websocket message within " + seconds + " s");
      }
      JsonNode m = queue.poll(left, TimeUnit.NANOSECONDS);
      if (m != null && p.test(m)) {
        return m;
      }
    }
  }

  public void send(String text) {
    socket.sendText(text, true).join();
  }

  @Override
  public void close() {
    socket.abort();
  }
}
