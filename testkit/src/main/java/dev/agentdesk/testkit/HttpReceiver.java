package dev.agentdesk.testkit;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * A real HTTP server on a loopback port (the JDK's) that records every request and answers with
 * the status {@link #status} gives; while {@link #hold} is set, each answer waits for it to count
 * down. For webhook tests: the receiving end of a real POST.
 */
public final class HttpReceiver implements AutoCloseable {
  /** One request as it arrived. */
  public record Request(String method, String path, String contentType, String body) {}

  public final List<Request> requests = new CopyOnWriteArrayList<>();
  public volatile IntSupplier status = () -> 200;
  public volatile CountDownLatch hold;
  private final HttpServer server;

  public HttpReceiver() {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext("/", ex -> {
      String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      requests.add(new Request(ex.getRequestMethod(), ex.getRequestURI().getPath(),
          ex.getRequestHeaders().getFirst("Content-Type"), body));
      CountDownLatch h = hold;
      if (h != null) {
        try {
          h.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      int s = status.getAsInt();
      byte[] answer = (s == 200 ? "ok" : "refused with " + s).getBytes(StandardCharsets.UTF_8);
      ex.sendResponseHeaders(s, answer.length);
      ex.getResponseBody().write(answer);
      ex.close();
    });
    server.start();
  }

  /** {@code http://127.0.0.1:PORT/path}. */
  public String url(String path) {
    return "http://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  /** Waits (20 s at most) for the {@code count}th request and returns it. */
  public Request await(int count) throws InterruptedException {
    long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (requests.size() < count) {
      if (System.nanoTime() > end) {
        throw new AssertionError("expected " + count + " requests, got " + requests);
      }
      Thread.sleep(20);
    }
    return requests.get(count - 1);
  }

  @Override
  public void close() {
    CountDownLatch h = hold;
    if (h != null) {
      h.countDown();
    }
    server.stop(0);
  }
}
