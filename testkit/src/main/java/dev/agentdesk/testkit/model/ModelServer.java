package dev.agentdesk.testkit.model;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * A scripted model API on a loopback port, for running real agent CLIs offline: point the agent's
 * base URL at {@link #baseUrl()} and {@link #add} the conversations it should have. Every request
 * is recorded ({@link #requests()}) with what it asked and what it got.
 *
 * <p>A model call is answered by the newest {@link Script} whose marker its latest prompt contains
 * and that offers tools (the agent's main loop; side calls such as title generation offer none),
 * at the step the conversation has reached; anything else gets {@link #DONE}. Scripts are data, so
 * one server serves a whole test class: give each test its own marker.
 *
 * <p>Protocols: Anthropic Messages ({@code /v1/messages}, streamed or not, and
 * {@code count_tokens}), OpenAI Chat Completions ({@code /v1/chat/completions}), OpenAI Responses
 * ({@code /v1/responses}) and Gemini ({@code /v1beta/models/<model>:streamGenerateContent} and
 * {@code :generateContent}); the OpenAI paths also without {@code /v1}. A path no protocol serves
 * is answered 404 and recorded.
 */
public final class ModelServer implements AutoCloseable {
  /** The answer to a request no script covers, and to steps past a script's end. */
  public static final Reply.Message DONE = Reply.text("Done.");

  private static final List<Dialect> DIALECTS = List.of(new AnthropicMessages(), new OpenAiChat(),
      new OpenAiResponses(), new GeminiGenerate());

  private final HttpServer server;
  private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "model-server");
    t.setDaemon(true);
    return t;
  });
  private final List<Script> scripts = new CopyOnWriteArrayList<>();
  private final List<ModelRequest> requests = new CopyOnWriteArrayList<>();
  /** Attempts so far per (script marker, step); guarded by itself. */
  private final Map<String, Integer> attempts = new HashMap<>();
  private final Object arrived = new Object();

  private ModelServer(HttpServer server) {
    this.server = server;
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  /** A server on an ephemeral loopback port, serving no scripts yet. */
  public static ModelServer start() {
    try {
      return new ModelServer(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code http://127.0.0.1:PORT} (no trailing slash): the agent's API base URL. */
  public String baseUrl() {
    return "http://" + server.getAddress().getAddress().getHostAddress() + ":" + server.getAddress().getPort();
  }

  /** Adds a conversation; a later script with an overlapping marker wins. */
  public ModelServer add(Script script) {
    scripts.add(0, script);
    return this;
  }

  /** Every request so far, oldest first. */
  public List<ModelRequest> requests() {
    return List.copyOf(requests);
  }

  /** The requests a script answered, oldest first. */
  public List<ModelRequest> requestsFor(String marker) {
    return requests.stream().filter(r -> marker.equals(r.script())).toList();
  }

  /**
   * Waits until a request matching {@code test} has arrived (including earlier ones) and returns the first.
   *
   * @throws TimeoutException naming what was waited for and how many requests came
   */
  public ModelRequest await(String what, Predicate<ModelRequest> test, Duration timeout)
      throws TimeoutException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (arrived) {
      while (true) {
        for (ModelRequest r : requests) {
          if (test.test(r)) {
            return r;
          }
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new TimeoutException("no " + what + " within " + timeout + " (" + requests.size() + " requests came)");
        }
        arrived.wait(Math.max(1, left / 1_000_000));
      }
    }
  }

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      String method = ex.getRequestMethod();
      String path = ex.getRequestURI().getPath();
      String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      Map<String, String> headers = new HashMap<>();
      ex.getRequestHeaders().forEach((k, v) -> {
        if (!v.isEmpty()) {
          headers.put(k.toLowerCase(Locale.ROOT), v.get(0));
        }
      });
      String fullPath = ex.getRequestURI().getRawQuery() == null ? path : path + "?" + ex.getRequestURI().getRawQuery();
      Dialect dialect = DIALECTS.stream().filter(d -> d.serves(method, path)).findFirst().orElse(null);
      if (dialect == null) {
        record(new ModelRequest("unknown", method, fullPath, headers, body, null, false, List.of(), null, 0, null, null));
        sendJson(ex, 404, Map.of(), "{\"error\":\"not served by the scripted model server\"}");
        return;
      }
      Object json;
      try {
        json = body.isEmpty() ? Map.of() : Json.parse(body);
      } catch (IllegalArgumentException e) {
        record(new ModelRequest(dialect.name(), method, fullPath, headers, body, null, false, List.of(), null, 0, null,
            null));
        sendJson(ex, 400, Map.of(), "{\"error\":" + Json.quote(e.getMessage()) + "}");
        return;
      }
      Dialect.Asked asked = dialect.read(path, json);
      if (dialect.answerAuxiliary(path, json, ex)) {
        record(new ModelRequest(dialect.name(), method, fullPath, headers, body, asked.model(), asked.stream(),
            asked.tools(), asked.prompt(), asked.step(), null, null));
        return;
      }
      Script script = match(asked);
      Reply reply = script == null ? DONE : reply(script, asked.step());
      for (int depth = 0; reply instanceof Reply.FromRequest f; depth++) {
        if (depth > 8) {
          throw new IllegalStateException("a FromRequest reply built FromRequest replies eight times over");
        }
        reply = f.build().apply(body);
      }
      record(new ModelRequest(dialect.name(), method, fullPath, headers, body, asked.model(), asked.stream(),
          asked.tools(), asked.prompt(), asked.step(), script == null ? null : script.marker(), reply));
      dialect.write(reply, asked.stream(), asked.model(), ex);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      // The client went away mid-stream (an interrupted turn): nothing to answer.
    }
  }

  private Script match(Dialect.Asked asked) {
    if (asked.prompt() == null || asked.tools().isEmpty()) {
      return null;
    }
    for (Script s : scripts) {
      if (asked.prompt().contains(s.marker())) {
        return s;
      }
    }
    return null;
  }

  private Reply reply(Script script, int step) {
    if (step >= script.steps().size()) {
      return DONE;
    }
    int n;
    synchronized (attempts) {
      n = attempts.merge(script.marker() + "\u0000" + step, 1, Integer::sum) - 1;
    }
    return script.steps().get(step).attempt(n);
  }

  private void record(ModelRequest r) {
    requests.add(r);
    synchronized (arrived) {
      arrived.notifyAll();
    }
  }

  static void sendJson(HttpExchange ex, int status, Map<String, String> headers, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    headers.forEach((k, v) -> ex.getResponseHeaders().set(k, v));
    ex.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  /** Stops the server at once (open streams are cut). */
  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  /** Runs a server on {@code args[0]} (or an ephemeral port) answering {@link #DONE}, printing requests
   * (and writing their bodies into the folder {@code args[1]} when given): for exploring an agent by hand. */
  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
    ModelServer s = new ModelServer(HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0));
    System.out.println(s.baseUrl());
    for (Script script : ExploreScripts.all()) {
      s.add(script);
    }
    int seen = 0; // by position: a resent request equals the first one
    while (true) {
      Thread.sleep(200);
      List<ModelRequest> all = s.requests();
      for (; seen < all.size(); seen++) {
        ModelRequest r = all.get(seen);
        if (args.length > 1) {
          java.nio.file.Files.writeString(java.nio.file.Path.of(args[1], (seen + 1) + ".json"), r.body());
        }
        System.out.println(r.method() + " " + r.path() + " model=" + r.model() + " stream=" + r.stream() + " tools="
            + r.tools().size() + " step=" + r.step() + " prompt=" + abbreviate(r.prompt()));
      }
    }
  }

  private static String abbreviate(String s) {
    return s == null ? null : s.length() > 80 ? s.substring(0, 80).replace('\n', ' ') + "…" : s.replace('\n', ' ');
  }
}
