package dev.agentdesk.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.app.serve.AgentdeskServer;
import dev.agentdesk.app.serve.Serve;
import dev.agentdesk.app.serve.ServeConfig;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve} on a loopback and on a non-loopback bind refuses every unauthenticated call, and no
 * endpoint reads a path outside the configured roots whatever the request path says.
 */
class ServeExposureTest {
  private static final String TOKEN = "serve-exposure-token";
  /** A file outside every configured root that a traversal would try to reach. */
  private static final String SECRET = "top-secret-" + System.nanoTime();

  @Test
  void everyBindRefusesUnauthenticatedCallsAndNoPathEscapesTheRoots(@TempDir Path tmp) throws Exception {
    Path outside = tmp.resolve("outside.txt");
    Files.writeString(outside, SECRET);
    Path claude = Files.createDirectories(tmp.resolve("roots/claude"));
    Path codex = Files.createDirectories(tmp.resolve("roots/codex"));
    List<String> binds = List.of("127.0.0.1", "0.0.0.0");
    List<String> apiPaths = List.of("/api/health", "/api/history/sessions", "/api/history/search?q=x",
        "/api/history/usage", "/api/terminals", "/", "/js/app.js", "/openapi.json");
    List<String> traversals = List.of();
    for (String bind : binds) {
      ServeConfig config = new ServeConfig(bind, 0, ServeConfig.Access.Token.of(TOKEN),
          new ServeConfig.Database.SqliteFile(tmp.resolve("h.db")), claude, codex, false, tmp.resolve("data"));
      traversals = probe(config, apiPaths, tmp, outside);
    }
    Figures.of("Exposure: serve on loopback and non-loopback binds")
        .write(binds.size() + " binds × " + apiPaths.size() + " routes × (no token, wrong token, token in the URL); "
            + traversals.size() + " traversal paths",
            "every unauthenticated call 401; no traversal reads outside the roots (4xx, no file content)");
  }

  private static List<String> probe(ServeConfig config, List<String> apiPaths, Path tmp, Path outside) throws Exception {
    try (AgentdeskServer server = Serve.start(config)) {
      int port = server.port();
      for (String path : apiPaths) {
        assertThat(get(port, path, null)).as("GET %s without token", path).startsWith("HTTP/1.1 401");
        assertThat(get(port, path, "wrong")).as("GET %s with a wrong token", path).startsWith("HTTP/1.1 401");
        if (path.startsWith("/api/")) {
          assertThat(get(port, path + (path.contains("?") ? "&" : "?") + "token=" + TOKEN, null))
              .as("GET %s with the token in the URL", path).startsWith("HTTP/1.1 401");
        }
      }
      assertThat(get(port, "/api/health", TOKEN)).startsWith("HTTP/1.1 200");

      String rel = tmp.relativize(outside).toString();
      List<String> traversals = List.of(
          "/api/history/sessions/..%2F..%2F..%2F..%2F..%2F..%2F..%2F..%2F" + outside.toString().substring(1).replace("/", "%2F"),
          "/api/history/sessions/" + "..%2F".repeat(12) + "etc%2Fpasswd",
          "/../../../../../../../../etc/passwd",
          "/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
          "/static/..%2F..%2F..%2F..%2F..%2F..%2Fetc%2Fpasswd",
          "/..%5c..%5c..%5c..%5cetc%5cpasswd",
          "/api/history/sessions/%2F" + outside.toString().substring(1).replace("/", "%2F"),
          "/" + rel, "/api/terminals/..%2F..%2F" + rel + "/capture");
      for (String path : traversals) {
        String response = get(port, path, TOKEN);
        assertThat(response).as("GET %s", path).doesNotContain(SECRET).doesNotContain("root:x:0:0");
        assertThat(response).as("GET %s answers with a client error", path).matches("(?s)HTTP/1.1 4\\d\\d.*");
      }
      return traversals;
    }
  }

  /**
   * The server's token check hashes the presented token and compares fixed-length SHA-256
   * digests with {@link java.security.MessageDigest#isEqual}, like the ACI runtime: the time shows
   * neither where a wrong token differs nor whether its length is right. Measured on the check
   * itself (median ratio of ABBA-interleaved batch pairs within a factor of 1.5, as for the runtime); all
   * tokens here fit one SHA-256 block, so hashing costs the same for each.
   */
  @Test
  void tokenCheckTakesTheSameTimeWhateverTheWrongTokenLooksLike() throws Exception {
    Class<?> checkClass = Class.forName("dev.agentdesk.app.serve.TokenCheck");
    Constructor<?> ctor = checkClass.getDeclaredConstructor(String.class);
    ctor.setAccessible(true);
    Object guard = ctor.newInstance(TOKEN);
    Method matches = checkClass.getDeclaredMethod("tokenMatches", String.class);
    matches.setAccessible(true);
    Predicate<String> check = token -> {
      try {
        return (Boolean) matches.invoke(guard, token);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    };
    String firstWrong = "X" + TOKEN.substring(1);
    String lastWrong = TOKEN.substring(0, TOKEN.length() - 1) + "X";
    String shorter = TOKEN.substring(0, TOKEN.length() / 2);
    String longer = TOKEN + "-and-some-more";
    assertThat(check.test(TOKEN)).as("the token itself").isTrue();
    for (String wrong : List.of(firstWrong, lastWrong, shorter, longer, TOKEN.substring(1), TOKEN + "x", "")) {
      assertThat(check.test(wrong)).as("'%s'", wrong).isFalse();
    }
    double position = ConstantTime.medianRatio(check, firstWrong, lastWrong);
    double length = ConstantTime.medianRatio(check, shorter, lastWrong);
    assertThat(position).as("median time first-byte-wrong / last-byte-wrong").isBetween(0.67, 1.5);
    assertThat(length).as("median time half-length / right-length-wrong").isBetween(0.67, 1.5);
    Figures.of("Exposure: serve token compare (SHA-256 digests)")
        .put("median_ratio_first_vs_last_byte", Math.round(position * 1000) / 1000.0)
        .put("median_ratio_short_vs_right_length", Math.round(length * 1000) / 1000.0)
        .write(ConstantTime.describe() + " per pair",
            "wrong position and wrong length take the same time; prefixes, extensions and empty refused");
  }

  /** A raw HTTP/1.1 GET, so the request path reaches the server exactly as written. */
  private static String get(int port, String path, String token) throws Exception {
    try (Socket s = new Socket("127.0.0.1", port)) {
      s.setSoTimeout(10_000);
      String req = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nConnection: close\r\n"
          + (token == null ? "" : "Authorization: Bearer " + token + "\r\n") + "\r\n";
      OutputStream out = s.getOutputStream();
      out.write(req.getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
