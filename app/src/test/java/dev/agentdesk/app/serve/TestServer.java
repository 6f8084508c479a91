package dev.agentdesk.app.serve;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * A real server on a random loopback port with its own temp folders, plus a small HTTP client.
 * The server requires a token, as {@code agentdesk serve} does by default; {@link #get} and its
 * siblings send it, {@link #sendRaw} does not, {@link #page} is the sign-in link for a browser and
 * {@link #ws} opens a WebSocket with it.
 */
public final class TestServer implements AutoCloseable {
  public final Path dir;
  public final AgentdeskServer server;
  public final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  public final String base;
  /** The server's token; empty for a {@code --no-token} server. */
  public final Optional<String> token;
  /** Set when this server made {@link #dir} itself and so deletes it on close. */
  private boolean ownsDir;

  private TestServer(Path dir, AgentdeskServer server, Optional<String> token) {
    this.dir = dir;
    this.server = server;
    this.token = token;
    this.base = "http://127.0.0.1:" + server.port();
  }

  public static TestServer start() {
    return start("127.0.0.1", newToken(), false);
  }

  /** A fresh token, as {@code serve} writes into its token file. */
  public static ServeConfig.Access.Token newToken() {
    return ServeConfig.Access.Token.of(TokenFile.generate());
  }

  public static TestServer start(String bind, ServeConfig.Access access, boolean importHistory) {
    try {
      Path dir = Files.createTempDirectory("agentdesk-serve-test");
      Files.createDirectories(dir.resolve("claude"));
      Files.createDirectories(dir.resolve("codex"));
      TestServer s = start(new ServeConfig(bind, 0, access, new ServeConfig.Database.SqliteFile(dir.resolve("history.db")),
          dir.resolve("claude"), dir.resolve("codex"), importHistory, dir.resolve("data")), dir);
      s.ownsDir = true;
      return s;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A loopback server that imports and tails {@code dir/claude} and {@code dir/codex}. */
  public static TestServer withHistory(Path dir) {
    try {
      Files.createDirectories(dir.resolve("claude"));
      Files.createDirectories(dir.resolve("codex"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return start(new ServeConfig("127.0.0.1", 0, newToken(),
        new ServeConfig.Database.SqliteFile(dir.resolve("db").resolve("history.db")),
        dir.resolve("claude"), dir.resolve("codex"), true, dir.resolve("data")), dir);
  }

  /**
   * A loopback server whose agents start with {@code env} (a PATH with stand-in agent CLIs, a
   * temporary HOME); it imports and tails that HOME's Claude and Codex folders, keeps agents.db
   * and worktrees under {@code dir/data}.
   */
  public static TestServer withAgents(Path dir, java.util.Map<String, String> env) {
    return withAgents(dir, env, ServeConfig.Notifications.none());
  }

  /** Like {@link #withAgents(Path, java.util.Map)}, with webhooks, a desktop bus, a settings file, auto-resume. */
  public static TestServer withAgents(Path dir, java.util.Map<String, String> env, ServeConfig.Notifications n) {
    Path home = Path.of(env.get("HOME"));
    ServeConfig config = new ServeConfig("127.0.0.1", 0, newToken(),
        new ServeConfig.Database.SqliteFile(dir.resolve("db").resolve("history.db")),
        home.resolve(".claude/projects"), home.resolve(".codex/sessions"), true, dir.resolve("data"))
        .withNotifications(n);
    return new TestServer(dir, Serve.start(config, env), config.token());
  }

  /**
   * Like {@link #withAgents(Path, java.util.Map, ServeConfig.Notifications)} without the history
   * import ({@code serve --no-import}): what the server knows of an agent's transcript it reads from
   * the linked file itself.
   */
  public static TestServer withAgentsNoImport(Path dir, java.util.Map<String, String> env, ServeConfig.Notifications n) {
    Path home = Path.of(env.get("HOME"));
    ServeConfig config = new ServeConfig("127.0.0.1", 0, newToken(),
        new ServeConfig.Database.SqliteFile(dir.resolve("db").resolve("history.db")),
        home.resolve(".claude/projects"), home.resolve(".codex/sessions"), false, dir.resolve("data"))
        .withNotifications(n);
    return new TestServer(dir, Serve.start(config, env), config.token());
  }

  /** {@link #withAgents} whose MCP endpoint allows the control tools or not. */
  public static TestServer withAgents(Path dir, java.util.Map<String, String> env, boolean mcpAllowControl) {
    Path home = Path.of(env.get("HOME"));
    ServeConfig config = new ServeConfig("127.0.0.1", 0, newToken(),
        new ServeConfig.Database.SqliteFile(dir.resolve("db").resolve("history.db")),
        home.resolve(".claude/projects"), home.resolve(".codex/sessions"), true, dir.resolve("data"))
        .withMcpAllowControl(mcpAllowControl);
    return new TestServer(dir, Serve.start(config, env), config.token());
  }

  /** A loopback server (no history import) whose Recordings page plays the recordings in {@code recordings}. */
  public static TestServer withRecordings(Path recordings) {
    try {
      Path dir = Files.createTempDirectory("agentdesk-serve-test");
      Files.createDirectories(dir.resolve("claude"));
      Files.createDirectories(dir.resolve("codex"));
      TestServer s = start(new ServeConfig("127.0.0.1", 0, newToken(),
          new ServeConfig.Database.SqliteFile(dir.resolve("history.db")), dir.resolve("claude"), dir.resolve("codex"),
          false, dir.resolve("data")).withRecordings(recordings), dir);
      s.ownsDir = true;
      return s;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static TestServer start(ServeConfig config, Path dir) {
    return new TestServer(dir, Serve.start(config), config.token());
  }

  public record Response(int status, String body, java.net.http.HttpHeaders headers) {
    public JsonNode json() {
      try {
        return Json.MAPPER.readTree(body);
      } catch (IOException e) {
        throw new AssertionError("not JSON: " + body, e);
      }
    }
  }

  /** The link that signs a browser in and opens {@code fragment} (e.g. {@code #/history}). */
  public String page(String fragment) {
    return base + "/" + token.map(t -> "?token=" + t).orElse("") + fragment;
  }

  /** A WebSocket to {@code path} (e.g. {@code /ws/events}) that sends the token in a header. */
  public WsClient ws(String path) {
    return WsClient.connect("ws://127.0.0.1:" + server.port() + path,
        token.map(t -> java.util.Map.of("Authorization", "Bearer " + t)).orElse(java.util.Map.of()));
  }

  /** A request to {@code path} that carries the token, for tests that need other body handlers. */
  public HttpRequest.Builder request(String path) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(20));
    token.ifPresent(t -> b.header("Authorization", "Bearer " + t));
    return b;
  }

  public Response get(String path) {
    return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
  }

  public Response post(String path, String json) {
    return send(HttpRequest.newBuilder(URI.create(base + path))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json)));
  }

  public Response put(String path, String json) {
    return send(HttpRequest.newBuilder(URI.create(base + path))
        .header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString(json)));
  }

  public Response delete(String path) {
    return send(HttpRequest.newBuilder(URI.create(base + path)).DELETE());
  }

  Response send(HttpRequest.Builder b) {
    token.ifPresent(t -> b.header("Authorization", "Bearer " + t));
    return sendRaw(b);
  }

  /** Sends {@code b} as it is (no token added). */
  public Response sendRaw(HttpRequest.Builder b) {
    try {
      HttpResponse<String> r = http.send(b.timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
      return new Response(r.statusCode(), r.body(), r.headers());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Sends {@code GET path} over a plain socket with the given Host header (HttpClient refuses to). */
  Response getWithHost(String path, String host) {
    try (java.net.Socket socket = new java.net.Socket("127.0.0.1", server.port())) {
      String req = "GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n"
          + token.map(t -> "Authorization: Bearer " + t + "\r\n").orElse("") + "\r\n";
      socket.getOutputStream().write(req.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      String all = new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      int status = Integer.parseInt(all.substring(9, 12));
      String body = all.substring(all.indexOf("\r\n\r\n") + 4);
      return new Response(status, body, java.net.http.HttpHeaders.of(java.util.Map.of(), (a, b) -> true));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    server.close();
    if (ownsDir) {
      try (java.util.stream.Stream<Path> all = Files.walk(dir)) {
        all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (IOException e) {
        throw new UncheckedIOException("could not remove the test server's folder " + dir, e);
      }
    }
  }
}
