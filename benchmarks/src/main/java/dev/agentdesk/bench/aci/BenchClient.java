package dev.agentdesk.bench.aci;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A minimal synchronous ACI client over the JDK WebSocket: send one text, take one reply. */
final class BenchClient implements AutoCloseable {
  private final WebSocket ws;
  private final BlockingQueue<String> inbox = new LinkedBlockingQueue<>();

  BenchClient(int port, String token) throws InterruptedException {
    ws = HttpClient.newHttpClient().newWebSocketBuilder()
        .buildAsync(URI.create("ws://127.0.0.1:" + port + "/"), new WebSocket.Listener() {
          private final StringBuilder sb = new StringBuilder();

          @Override
          public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
            sb.append(data);
            if (last) {
              inbox.add(sb.toString());
              sb.setLength(0);
            }
            w.request(1);
            return null;
          }
        }).join();
    String welcome = call("{\"type\":\"hello\",\"v\":0,\"client\":{\"name\":\"bench\",\"version\":\"1\"},\"token\":\""
        + token + "\"}");
    if (!welcome.contains("\"welcome\"")) {
      throw new IllegalStateException("no welcome: " + welcome);
    }
  }

  String call(String text) throws InterruptedException {
    ws.sendText(text, true).join();
    String reply = inbox.poll(30, TimeUnit.SECONDS);
    if (reply == null) {
      throw new IllegalStateException("no reply to " + text);
    }
    return reply;
  }

  @Override
  public void close() {
    ws.abort();
  }
}
