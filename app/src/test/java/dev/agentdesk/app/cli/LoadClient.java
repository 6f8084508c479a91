package dev.agentdesk.app.cli;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One ACI client putting load on a runtime that is about to be stopped: it says hello, sends
 * {@code once} actions, then {@code repeat} actions in a loop, each waiting for its reply, until
 * {@link #close} or until the runtime goes away (which is expected: every error ends it quietly).
 * Actions are JSON action bodies; {@code #} in them is replaced by a per-send counter.
 */
final class LoadClient implements AutoCloseable {
  private final BlockingQueue<String> inbox = new LinkedBlockingQueue<>();
  private final Thread thread;
  private volatile WebSocket ws;
  private volatile boolean stopped;
  /** Replies received to our own actions: proof that the load reached the runtime. */
  private volatile int replies;

  private LoadClient(String name, HttpClient http, int port, String token, List<String> once, List<String> repeat) {
    thread = new Thread(() -> {
      try {
        ws = http.newWebSocketBuilder().buildAsync(URI.create("ws://127.0.0.1:" + port + "/"), new Inbox())
            .get(5, TimeUnit.SECONDS);
        if (stopped) {
          return;
        }
        ws.sendText("{\"type\":\"hello\",\"v\":0,\"client\":{\"name\":\"" + name
            + "\",\"version\":\"1\"},\"token\":\"" + token + "\"}", true).get(5, TimeUnit.SECONDS);
        int n = 0;
        for (String a : once) {
          act(a, n++);
        }
        while (!stopped && !repeat.isEmpty()) {
          for (String a : repeat) {
            act(a, n++);
          }
        }
      } catch (Exception | AssertionError gone) {
        // the runtime stopped under us: that is the point of the test
      }
    }, "load-" + name);
    thread.setDaemon(true);
  }

  static LoadClient start(String name, HttpClient http, int port, String token, List<String> once,
      List<String> repeat) {
    LoadClient c = new LoadClient(name, http, port, token, once, repeat);
    c.thread.start();
    return c;
  }

  int replies() {
    return replies;
  }

  private void act(String action, int n) throws Exception {
    String id = "c" + n;
    ws.sendText("{\"type\":\"action\",\"call_id\":\"" + id + "\",\"action\":" + action.replace("#", Integer.toString(n))
        + "}", true).get(5, TimeUnit.SECONDS);
    String reply = "\"call_id\":\"" + id + "\"";
    String observation = "\"cause\":\"" + id + "\"";
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!stopped && System.nanoTime() < deadline) {
      String m = inbox.poll(50, TimeUnit.MILLISECONDS);
      if (m != null && (m.contains(reply) || m.contains(observation))) {
        replies++;
        return;
      }
    }
  }

  @Override
  public void close() throws InterruptedException {
    stopped = true;
    WebSocket w = ws;
    if (w != null) {
      w.abort();
    }
    thread.join(5000);
  }

  private final class Inbox implements WebSocket.Listener {
    private final StringBuilder text = new StringBuilder();

    @Override
    public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
      text.append(data);
      if (last) {
        String m = text.toString();
        text.setLength(0);
        // stream frames and exec output chunks (the messages with a seq) are many; only replies matter
        if (!m.contains("\"seq\":")) {
          inbox.add(m);
        }
      }
      w.request(1);
      return null;
    }

    @Override
    public CompletionStage<?> onBinary(WebSocket w, ByteBuffer data, boolean last) {
      w.request(1);
      return null;
    }
  }
}
