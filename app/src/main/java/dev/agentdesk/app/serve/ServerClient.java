package dev.agentdesk.app.serve;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A caller of a running {@code agentdesk serve}, for CLI commands (and tests): it sends the
 * server's token as {@code Authorization: Bearer}, read from the token file the server keeps, so
 * a command run by the same user on the same machine needs no token argument.
 *
 * <pre>{@code
 * ServerClient server = ServerClient.local(ServerClient.DEFAULT_URL);
 * ServerClient.Response health = server.get("/api/health");
 * }</pre>
 */
public final class ServerClient {
  public static final URI DEFAULT_URL = URI.create("http://127.0.0.1:" + ServeConfig.DEFAULT_PORT + "/");

  private final URI base;
  private final Optional<String> token;
  private final Optional<Path> tokenFile;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private ServerClient(URI base, Optional<String> token, Optional<Path> tokenFile) {
    Objects.requireNonNull(base, "base");
    this.base = base.getPath().endsWith("/") ? base : URI.create(base + "/");
    this.token = token;
    this.tokenFile = tokenFile;
  }

  /** The server at {@code base}, with the token from this user's default token file. */
  public static ServerClient local(URI base) {
    return withTokenFile(base, TokenFile.defaultPath(System.getenv(), DataDirs.home()));
  }

  /**
   * The server at {@code base}, with the token read from {@code tokenFile} now.
   *
   * @throws TokenFile.TokenFileException when the file is missing, unreadable, too open or empty
   */
  public static ServerClient withTokenFile(URI base, Path tokenFile) {
    return new ServerClient(base, Optional.of(TokenFile.read(tokenFile)), Optional.of(tokenFile.toAbsolutePath()));
  }

  /** The server at {@code base} with a known token, or none for a {@code --no-token} server. */
  public static ServerClient withToken(URI base, Optional<String> token) {
    return new ServerClient(base, token, Optional.empty());
  }

  /** A call the server answered; any status but 401 (see {@link ServerClientException}). */
  public record Response(int status, String body, HttpHeaders headers) {
    public boolean ok() {
      return status >= 200 && status < 300;
    }
  }

  /** The server could not be reached, or refused the token. */
  public static final class ServerClientException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ServerClientException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  public URI base() {
    return base;
  }

  public Response get(String path) {
    return send(request(path).GET());
  }

  public Response post(String path, String json) {
    return send(request(path).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)));
  }

  public Response delete(String path) {
    return send(request(path).DELETE());
  }

  /** A request to {@code path} (e.g. {@code /api/health}) that carries the token. */
  public HttpRequest.Builder request(String path) {
    return authorize(HttpRequest.newBuilder(resolve(path)).timeout(Duration.ofSeconds(30)));
  }

  /** Adds the token to any request builder. */
  public HttpRequest.Builder authorize(HttpRequest.Builder b) {
    token.ifPresent(t -> b.header("Authorization", "Bearer " + t));
    return b;
  }

  /** A call whose body is bytes (a screenshot); any status but 401. */
  public record BinaryResponse(int status, byte[] body, HttpHeaders headers) {
    public boolean ok() {
      return status >= 200 && status < 300;
    }
  }

  /** {@code GET path}, the body kept as bytes. */
  public BinaryResponse getBytes(String path) {
    HttpResponse<byte[]> r = exchange(request(path).GET(), HttpResponse.BodyHandlers.ofByteArray());
    return new BinaryResponse(r.statusCode(), r.body(), r.headers());
  }

  /** Sends a request made by {@link #request}. */
  public Response send(HttpRequest.Builder b) {
    HttpResponse<String> r = exchange(b, HttpResponse.BodyHandlers.ofString());
    return new Response(r.statusCode(), r.body(), r.headers());
  }

  private <T> HttpResponse<T> exchange(HttpRequest.Builder b, HttpResponse.BodyHandler<T> handler) {
    HttpResponse<T> r;
    try {
      r = http.send(b.build(), handler);
    } catch (ConnectException e) {
      throw new ServerClientException("no agentdesk server answers at " + base + ": start one with 'agentdesk serve'", e);
    } catch (IOException e) {
      throw new ServerClientException("calling the agentdesk server at " + base + " failed: " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ServerClientException("interrupted while calling the agentdesk server at " + base, e);
    }
    if (r.statusCode() == 401) {
      throw new ServerClientException("the agentdesk server at " + base + " refused "
          + tokenFile.map(f -> "the token in " + f + ": it runs with another token file (--token-file),"
              + " or its token changed after it started")
              .orElse(token.isPresent() ? "the token" : "a call without a token"), null);
    }
    return r;
  }

  /** Opens the WebSocket at {@code path} (e.g. {@code /ws/events}), the token in a header. */
  public CompletableFuture<WebSocket> webSocket(String path, WebSocket.Listener listener) {
    URI http = resolve(path);
    URI ws = URI.create((http.getScheme().equals("https") ? "wss" : "ws") + http.toString().substring(http.getScheme().length()));
    WebSocket.Builder b = this.http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5));
    token.ifPresent(t -> b.header("Authorization", "Bearer " + t));
    return b.buildAsync(ws, listener);
  }

  private URI resolve(String path) {
    return base.resolve(path.startsWith("/") ? path.substring(1) : path);
  }
}
