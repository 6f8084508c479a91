package dev.agentdesk.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.app.serve.AgentdeskServer;
import dev.agentdesk.app.serve.Serve;
import dev.agentdesk.app.serve.ServeConfig;
import dev.agentdesk.app.serve.TokenFile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server under many concurrent clients (200 under -Preliability), each holding the global
 * event WebSocket open while it calls the REST API: every call answers 200, every socket opens
 * and stays open, and the heap after the run stays bounded.
 */
class ServeLoadTest {
  @Test
  void concurrentApiAndWebSocketClientsSeeNoErrors(@TempDir Path tmp) throws Exception {
    int clients = Size.pick(40, 200);
    int callsEach = Size.pick(10, 50);
    Path claude = Files.createDirectories(tmp.resolve("claude"));
    Path codex = Files.createDirectories(tmp.resolve("codex"));
    String token = TokenFile.generate();
    ServeConfig config = new ServeConfig("127.0.0.1", 0, ServeConfig.Access.Token.of(token),
        new ServeConfig.Database.SqliteFile(tmp.resolve("h.db")), claude, codex, false, tmp.resolve("data"));
    AtomicInteger errors = new AtomicInteger();
    AtomicInteger ok = new AtomicInteger();
    List<String> firstErrors = new ArrayList<>();
    Latencies latencies = new Latencies();
    long heapBefore;
    long heapAfter;
    try (AgentdeskServer server = Serve.start(config)) {
      String base = "http://127.0.0.1:" + server.port();
      HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
      heapBefore = usedHeap();
      List<WebSocket> sockets = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        sockets.add(http.newWebSocketBuilder().header("Authorization", "Bearer " + token).buildAsync(URI.create("ws://127.0.0.1:" + server.port() + "/ws/events"),
            new WebSocket.Listener() {
              @Override
              public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
                ws.request(1);
                return null;
              }
            }).get(30, TimeUnit.SECONDS));
      }
      List<String> paths = List.of("/api/health", "/api/history/sessions", "/api/history/usage",
          "/api/history/search?q=hello", "/api/terminals", "/api/history/import");
      ExecutorService pool = Executors.newFixedThreadPool(Math.min(clients, 64));
      List<Future<?>> done = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        int seed = c;
        done.add(pool.submit(() -> {
          Latencies mine = new Latencies();
          for (int i = 0; i < callsEach; i++) {
            String path = paths.get((seed + i) % paths.size());
            long t0 = System.nanoTime();
            try {
              HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + path))
                  .header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
              if (r.statusCode() == 200) {
                ok.incrementAndGet();
                mine.add(System.nanoTime() - t0);
              } else {
                fail(errors, firstErrors, path + " → " + r.statusCode() + " " + r.body());
              }
            } catch (Exception e) {
              fail(errors, firstErrors, path + " → " + e);
            }
          }
          latencies.addAll(mine);
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get(10, TimeUnit.MINUTES);
      }
      pool.shutdown();
      for (WebSocket ws : sockets) {
        assertThat(ws.isInputClosed()).as("event socket closed by the server").isFalse();
        ws.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(10, TimeUnit.SECONDS);
      }
      heapAfter = usedHeap();
    }
    assertThat(firstErrors).isEmpty();
    assertThat(ok.get()).isEqualTo(clients * callsEach);
    assertThat(heapAfter).as("heap after the run").isLessThan(heapBefore + 256L * 1024 * 1024);
    Figures.of("Server under concurrent API + WebSocket clients").put("clients", clients)
        .put("calls", clients * callsEach).put("errors", errors.get())
        .put("p50_ms", latencies.percentileMillis(50)).put("p99_ms", latencies.percentileMillis(99))
        .put("heap_growth_mb", (heapAfter - heapBefore) / (1024 * 1024))
        .write(clients + " clients (1 event socket + " + callsEach + " REST calls each)",
            "0 errors; every socket stayed open; heap bounded");
  }

  private static void fail(AtomicInteger errors, List<String> first, String what) {
    errors.incrementAndGet();
    synchronized (first) {
      if (first.size() < 5) {
        first.add(what);
      }
    }
  }

  private static long usedHeap() {
    Runtime rt = Runtime.getRuntime();
    System.gc();
    return rt.totalMemory() - rt.freeMemory();
  }
}
