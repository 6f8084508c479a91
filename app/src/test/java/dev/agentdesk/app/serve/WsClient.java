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

  /** Every binary message received so far, concatenated (a terminal socket's byte stream). */
  private final java.io.ByteArrayOutputStream binary;

  private WsClient(WebSocket socket, BlockingQueue<JsonNode> queue, java.io.ByteArrayOutputStream binary) {
    this.socket = socket;
    this.queue = queue;
    this.binary = binary;
  }

  /** Connects without any credentials. */
  public static WsClient connect(String url) {
    return connect(url, java.util.Map.of());
  }

  /** Connects with the given request headers (e.g. {@code Authorization}, {@code Cookie}). */
  public static WsClient connect(String url, java.util.Map<String, String> headers) {
    BlockingQueue<JsonNode> q = new LinkedBlockingQueue<>();
    java.io.ByteArrayOutputStream bin = new java.io.ByteArrayOutputStream();
    WebSocket.Builder builder = HttpClient.newHttpClient().newWebSocketBuilder()
        .connectTimeout(Duration.ofSeconds(5));
    headers.forEach(builder::header);
    WebSocket ws = builder
        .buildAsync(URI.create(url), new WebSocket.Listener() {
          private final StringBuilder partial = new StringBuilder();
          private int binaryStart = -1;

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

          /**
           * Binary messages go to the byte stream; {"type": "binary", "bytes": n, "offset": o} marks
           * their place (n: the whole message, however many fragments it came in).
           */
          @Override
          public CompletionStage<?> onBinary(WebSocket webSocket, java.nio.ByteBuffer data, boolean last) {
            int n = data.remaining();
            byte[] b = new byte[n];
            data.get(b);
            int end;
            synchronized (bin) {
              if (binaryStart < 0) {
                binaryStart = bin.size();
              }
              bin.write(b, 0, n);
              end = bin.size();
            }
            if (last) {
              q.add(Json.MAPPER.createObjectNode().put("type", "binary").put("bytes", end - binaryStart)
                  .put("offset", binaryStart));
              binaryStart = -1;
            }
            webSocket.request(1);
            return null;
          }
        }).join();
    return new WsClient(ws, q, bin);
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

  /** The bytes of the binary message a {"type": "binary"} marker stands for. */
  public byte[] binaryMessage(JsonNode marker) {
    synchronized (binary) {
      byte[] all = binary.toByteArray();
      int off = marker.get("offset").asInt();
      return java.util.Arrays.copyOfRange(all, off, off + marker.get("bytes").asInt());
    }
  }

  /** The binary messages received so far as UTF-8 text, once {@code p} holds for it; fails after {@code seconds}. */
  public String awaitBinary(Predicate<String> p, int seconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (true) {
      String text;
      synchronized (binary) {
        text = binary.toString(java.nio.charset.StandardCharsets.UTF_8);
      }
      if (p.test(text)) {
        return text;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("binary messages within " + seconds + " s did not match; got: " + text);
      }
      Thread.sleep(20);
    }
  }

  public void sendBinary(byte[] bytes) {
    socket.sendBinary(java.nio.ByteBuffer.wrap(bytes), true).join();
  }

  public void send(String text) {
    socket.sendText(text, true).join();
  }

  @Override
  public void close() {
    socket.abort();
  }
}
