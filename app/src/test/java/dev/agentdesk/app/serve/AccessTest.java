package dev.agentdesk.app.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Who may call the server: the token on every bind (header or the dashboard cookie, a URL token
 * only for the first page load), Host and Origin checks on loopback, {@code --no-token}.
 */
class AccessTest {
  static final String TOKEN = "test-token-0123456789abcdef";
  static final Path TOKEN_FILE = Path.of("/home/someone/.local/share/agentdesk/token");

  @Nested
  class WithToken {
    static TestServer s;

    @BeforeAll
    static void start() {
      s = TestServer.start("127.0.0.1", new ServeConfig.Access.Token(TOKEN, Optional.of(TOKEN_FILE)), false);
    }

    @AfterAll
    static void stop() {
      s.close();
    }

    private TestServer.Response raw(String method, String path, Map<String, String> headers) {
      HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(s.base + path));
      headers.forEach(b::header);
      b.method(method, method.equals("GET") || method.equals("DELETE") ? HttpRequest.BodyPublishers.noBody()
          : HttpRequest.BodyPublishers.ofString("{\"argv\":[\"bash\"]}"));
      return s.sendRaw(b);
    }

    /** Every registered route with its parameters filled in, and the pages and files of the dashboard. */
    private List<String[]> everyRoute() {
      List<String[]> all = new ArrayList<>();
      for (AgentdeskServer.Route r : s.server.routes()) {
        all.add(new String[] {r.method(), r.path().replaceAll("\\{[^}]+}", "x")});
      }
      for (String page : List.of("/", "/index.html", "/js/app.js", "/js/api.js", "/css/app.css", "/openapi.json",
          "/no-such-page", "/api/no-such-route", "/ws/no-such-socket")) {
        all.add(new String[] {"GET", page});
      }
      return all;
    }

    @Test
    void everyRouteAndEveryFileAnswers401WithoutTheToken() {
      List<String[]> routes = everyRoute();
      assertThat(routes).hasSizeGreaterThan(30);
      for (String[] route : routes) {
        if (route[0].equals("WEBSOCKET")) {
          assertThatThrownBy(() -> WsClient.connect("ws://127.0.0.1:" + s.server.port() + route[1]))
              .as("WS %s", route[1]).isInstanceOf(CompletionException.class).rootCause().hasMessageContaining("401");
          continue;
        }
        var r = raw(route[0], route[1], Map.of());
        assertThat(r.status()).as("%s %s without the token", route[0], route[1]).isEqualTo(401);
        assertThat(r.body()).as("%s %s", route[0], route[1]).doesNotContain("<title>agentdesk</title>", "\"openapi\"",
            "import ");
        assertThat(r.headers().firstValue("Set-Cookie")).isEmpty();
        assertThat(r.headers().firstValue("WWW-Authenticate")).contains("Bearer realm=\"agentdesk\"");
      }
      // The shell of a POST /api/terminals from another account: no terminal was started.
      assertThat(s.get("/api/terminals").json()).isEmpty();
    }

    @Test
    void wrongTokensOfEveryLengthAreRefused() {
      char flipped = TOKEN.charAt(5) == 'x' ? 'y' : 'x';
      List<String> wrong = List.of(
          TOKEN.substring(0, 5) + flipped + TOKEN.substring(6), // same length, one character off
          "X" + TOKEN.substring(1), TOKEN.substring(0, TOKEN.length() - 1) + "X",
          TOKEN.substring(0, TOKEN.length() - 1), TOKEN + "x", TOKEN.substring(0, 8), TOKEN + TOKEN, "x");
      for (String w : wrong) {
        var r = raw("GET", "/api/health", Map.of("Authorization", "Bearer " + w));
        assertThat(r.status()).as("'%s'", w).isEqualTo(401);
        assertThat(r.json().get("message").asText()).isEqualTo("wrong token");
        assertThat(raw("GET", "/?token=" + w, Map.of()).status()).as("sign-in with '%s'", w).isEqualTo(401);
        assertThatThrownBy(() -> WsClient.connect("ws://127.0.0.1:" + s.server.port() + "/ws/events",
            Map.of("Authorization", "Bearer " + w))).rootCause().hasMessageContaining("401");
      }
      assertThat(raw("GET", "/api/health", Map.of("Authorization", "Basic " + TOKEN)).status()).isEqualTo(401);
      assertThat(raw("GET", "/api/health", Map.of("Authorization", "Bearer")).status()).isEqualTo(401);
    }

    @Test
    void theBearerHeaderOpensEveryKindOfRoute() throws Exception {
      Map<String, String> bearer = Map.of("Authorization", "Bearer " + TOKEN);
      assertThat(raw("GET", "/api/health", bearer).json().get("token_required").asBoolean()).isTrue();
      assertThat(raw("GET", "/api/health", Map.of("Authorization", "bearer " + TOKEN)).status()).isEqualTo(200);
      assertThat(raw("GET", "/", bearer).body()).contains("<title>agentdesk</title>");
      assertThat(raw("GET", "/openapi.json", bearer).status()).isEqualTo(200);
      try (WsClient ws = s.ws("/ws/events")) {
        assertThat(ws.await(m -> m.get("type").asText().equals("hello"), 5).get("token_required").asBoolean()).isTrue();
      }
    }

    @Test
    void aTokenInTheUrlIsNeverTakenByTheApiOrAWebSocket() {
      var r = raw("GET", "/api/health?token=" + TOKEN, Map.of());
      assertThat(r.status()).isEqualTo(401);
      assertThat(r.json().get("message").asText()).contains("taken only when opening the dashboard", TOKEN_FILE.toString());
      assertThat(raw("POST", "/api/terminals?token=" + TOKEN, Map.of("Content-Type", "application/json")).status())
          .isEqualTo(401);
      assertThatThrownBy(() -> WsClient.connect("ws://127.0.0.1:" + s.server.port() + "/ws/events?token=" + TOKEN))
          .rootCause().hasMessageContaining("401");
    }

    @Test
    void theFirstPageLoadTradesTheTokenForAStrictHttpOnlyCookieAndRedirectsWithoutIt() throws Exception {
      var r = raw("GET", "/?token=" + TOKEN, Map.of());
      assertThat(r.status()).isEqualTo(303);
      assertThat(r.headers().firstValue("Location")).contains("/");
      assertThat(r.headers().firstValue("Cache-Control")).contains("no-store");
      assertThat(r.body()).doesNotContain(TOKEN);
      String setCookie = r.headers().firstValue("Set-Cookie").orElseThrow();
      String name = "agentdesk-" + s.server.port();
      assertThat(setCookie).startsWith(name + "=").contains("; Path=/", "; HttpOnly", "; SameSite=Strict", "; Max-Age=")
          .doesNotContain(TOKEN);
      String cookie = setCookie.substring(0, setCookie.indexOf(';'));

      // The cookie opens the page, the API and the WebSockets, as the browser uses them.
      assertThat(raw("GET", "/", Map.of("Cookie", cookie)).body()).contains("<title>agentdesk</title>");
      assertThat(raw("GET", "/api/health", Map.of("Cookie", cookie)).status()).isEqualTo(200);
      try (WsClient ws = WsClient.connect("ws://127.0.0.1:" + s.server.port() + "/ws/events",
          Map.of("Cookie", cookie, "Origin", s.base))) {
        ws.await(m -> m.get("type").asText().equals("hello"), 5);
      }
      // Other cookies of this host (other ports, other apps) ride along and change nothing.
      assertThat(raw("GET", "/api/health", Map.of("Cookie", "other=1; " + cookie + "; agentdesk-1=zzz")).status())
          .isEqualTo(200);

      // The rest of the URL survives; a path that could name another host does not.
      assertThat(raw("GET", "/?a=1&token=" + TOKEN + "&b=2", Map.of()).headers().firstValue("Location")).contains("/?a=1&b=2");
      assertThat(raw("GET", "/index.html?token=" + TOKEN, Map.of()).headers().firstValue("Location")).contains("/index.html");
      assertThat(raw("GET", "//evil.example/?token=" + TOKEN, Map.of()).headers().firstValue("Location")).contains("/");
    }

    @Test
    void theCookieIsNotTheTokenAndOnlyThisServersCookieCounts() {
      String name = "agentdesk-" + s.server.port();
      assertThat(raw("GET", "/api/health", Map.of("Cookie", name + "=" + TOKEN)).status()).isEqualTo(401);
      var stale = raw("GET", "/api/health", Map.of("Cookie", name + "=an-old-cookie-value"));
      assertThat(stale.status()).isEqualTo(401);
      assertThat(stale.json().get("message").asText()).contains("no longer valid");
      String cookie = raw("GET", "/?token=" + TOKEN, Map.of()).headers().firstValue("Set-Cookie").orElseThrow();
      String value = cookie.substring(cookie.indexOf('=') + 1, cookie.indexOf(';'));
      // The same value under another port's name is another server's cookie.
      assertThat(raw("GET", "/api/health", Map.of("Cookie", "agentdesk-1=" + value)).status()).isEqualTo(401);
      // and the cookie's value is no bearer token
      assertThat(raw("GET", "/api/health", Map.of("Authorization", "Bearer " + value)).status()).isEqualTo(401);
    }

    @Test
    void aBrowserWithoutTheTokenGetsASignInPageThatSaysWhereTheTokenIs() {
      var r = raw("GET", "/", Map.of("Accept", "text/html"));
      assertThat(r.status()).isEqualTo(401);
      assertThat(r.headers().firstValue("Content-Type")).get().asString().startsWith("text/html");
      assertThat(r.headers().firstValue("Content-Security-Policy")).get().asString()
          .contains("default-src 'none'", "form-action 'self'").doesNotContain("unsafe");
      assertThat(r.body()).contains("This agentdesk server needs its token", "/?token=…", TOKEN_FILE.toString(),
          "name=\"token\"").doesNotContain(TOKEN);
      var wrong = raw("GET", "/?token=not-the-token-at-all", Map.of());
      assertThat(wrong.status()).isEqualTo(401);
      assertThat(wrong.body()).contains("That token is not this server").doesNotContain("not-the-token-at-all");
    }

    @Test
    void theDnsRebindingAndOriginChecksStandEvenWithTheToken() {
      var rebinding = s.getWithHost("/api/health", "evil.example:7420");
      assertThat(rebinding.status()).isEqualTo(403);
      assertThat(rebinding.json().get("code").asText()).isEqualTo("forbidden");
      assertThat(s.getWithHost("/api/health", "localhost:" + s.server.port()).status()).isEqualTo(200);
      var cross = raw("GET", "/api/health", Map.of("Authorization", "Bearer " + TOKEN, "Origin", "https://evil.example"));
      assertThat(cross.status()).isEqualTo(403);
      // another port of this machine is another origin, though browsers send it this host's cookies
      var otherPort = raw("POST", "/api/terminals", Map.of("Cookie", "x=y", "Origin", "http://127.0.0.1:1"));
      assertThat(otherPort.status()).isEqualTo(403);
      assertThat(raw("GET", "/api/health", Map.of("Authorization", "Bearer " + TOKEN, "Origin", s.base)).status())
          .isEqualTo(200);
    }
  }

  /**
   * The attack of issue #30: a page on another port of 127.0.0.1 posts {@code text/plain} through
   * a 307 redirect, so the browser sends {@code Origin: null} and the dashboard's cookie (SameSite
   * ignores ports). Each request here is what that browser sends; none may change anything.
   */
  @Nested
  class CookieNeedsTheDashboardsOrigin {
    static TestServer s;
    static String cookie;

    @BeforeAll
    static void start() {
      s = TestServer.start("127.0.0.1", new ServeConfig.Access.Token(TOKEN, Optional.of(TOKEN_FILE)), false);
      String setCookie = s.sendRaw(HttpRequest.newBuilder(URI.create(s.base + "/?token=" + TOKEN)))
          .headers().firstValue("Set-Cookie").orElseThrow();
      cookie = setCookie.substring(0, setCookie.indexOf(';'));
    }

    @AfterAll
    static void stop() {
      s.close();
    }

    private TestServer.Response send(String method, String path, String body, Map<String, String> headers) {
      HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(s.base + path));
      headers.forEach(b::header);
      b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
      return s.sendRaw(b);
    }

    private static final String SPAWN = "{\"argv\": [\"sh\", \"-c\", \"echo pwned\"]}";

    @Test
    void theRedirectedTextPlainPostOfAnotherPortStartsNothing() {
      var r = send("POST", "/api/terminals", SPAWN, Map.of("Cookie", cookie, "Origin", "null",
          "Content-Type", "text/plain"));
      assertThat(r.status()).isEqualTo(403);
      assertThat(r.json().get("code").asText()).isEqualTo("forbidden");
      assertThat(r.json().get("message").asText()).contains("opaque origin");
      // Origin: null is refused with the bearer token too, and for reads: nothing legitimate sends it.
      assertThat(send("GET", "/api/health", null, Map.of("Authorization", "Bearer " + TOKEN, "Origin", "null"))
          .status()).isEqualTo(403);
      assertThat(send("GET", "/api/terminals", null, Map.of("Cookie", cookie, "Origin", " null")).status())
          .isEqualTo(403);
      assertThat(s.get("/api/terminals").json()).as("no terminal was started").isEmpty();
    }

    @Test
    void everyChangeOnTheCookieNeedsTheDashboardsOwnOrigin() {
      List<String[]> changes = new ArrayList<>();
      for (AgentdeskServer.Route r : s.server.routes()) {
        if (!r.method().equals("GET") && !r.method().equals("HEAD") && !r.method().equals("WEBSOCKET")) {
          changes.add(new String[] {r.method(), r.path().replaceAll("\\{[^}]+}", "x")});
        }
      }
      changes.add(new String[] {"POST", "/mcp"});
      changes.add(new String[] {"GET", "/mcp"});
      changes.add(new String[] {"DELETE", "/mcp"});
      assertThat(changes).hasSizeGreaterThan(15);
      for (String[] c : changes) {
        String body = c[0].equals("DELETE") || c[0].equals("GET") ? null : SPAWN;
        for (Map<String, String> h : List.of(Map.of("Cookie", cookie), Map.of("Cookie", cookie, "Origin", "null"),
            Map.of("Cookie", cookie, "Origin", "http://127.0.0.1:1"),
            Map.of("Cookie", cookie, "Origin", "http://localhost:" + s.server.port()),
            Map.of("Cookie", cookie, "Origin", s.base + "/evil"),
            Map.of("Cookie", cookie, "Origin", "http://127.0.0.1:" + s.server.port() + ".evil.example"))) {
          var r = send(c[0], c[1], body, h);
          assertThat(r.status()).as("%s %s with %s", c[0], c[1], h.keySet() + String.valueOf(h.get("Origin")))
              .isEqualTo(403);
        }
        // The dashboard itself gets past the guard (to the route's own answer).
        var own = send(c[0], c[1], body == null ? null : "{\"no_such_field\": 1}", Map.of("Cookie", cookie, "Origin", s.base, "Content-Type", "application/json",
            "Accept", "application/json, text/event-stream"));
        assertThat(own.status()).as("%s %s from the dashboard", c[0], c[1]).isNotIn(401, 403, 415);
      }
      for (String ws : List.of("/ws/events", "/ws/terminals/x", "/ws/sandboxes/x/screen")) {
        for (Map<String, String> h : List.of(Map.of("Cookie", cookie), Map.of("Cookie", cookie, "Origin", "null"),
            Map.of("Cookie", cookie, "Origin", "http://127.0.0.1:1"))) {
          assertThatThrownBy(() -> WsClient.connect("ws://127.0.0.1:" + s.server.port() + ws, h))
              .as("WS %s with %s", ws, h).rootCause().hasMessageContaining("403");
        }
      }
      assertThat(s.get("/api/terminals").json()).isEmpty();
    }

    @Test
    void aBodyMustBeJsonWhateverTheCredentials() {
      for (String type : List.of("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
          "application/jsonx", "text/json")) {
        var viaCookie = send("POST", "/api/terminals", SPAWN, Map.of("Cookie", cookie, "Origin", s.base,
            "Content-Type", type));
        assertThat(viaCookie.status()).as(type).isEqualTo(415);
        assertThat(viaCookie.json().get("code").asText()).isEqualTo("unsupported_media_type");
        assertThat(viaCookie.json().get("message").asText()).contains("application/json");
        var viaBearer = send("POST", "/api/terminals", SPAWN, Map.of("Authorization", "Bearer " + TOKEN,
            "Content-Type", type));
        assertThat(viaBearer.status()).as(type).isEqualTo(415);
      }
      assertThat(send("POST", "/api/terminals", SPAWN, Map.of("Authorization", "Bearer " + TOKEN)).status())
          .as("no type at all").isEqualTo(415);
      assertThat(s.get("/api/terminals").json()).isEmpty();
      // application/json with a charset is JSON
      var ok = send("POST", "/api/terminals", "{\"argv\": [\"true\"]}", Map.of("Authorization", "Bearer " + TOKEN,
          "Content-Type", "application/json; charset=utf-8"));
      assertThat(ok.status()).isEqualTo(201);
      s.delete("/api/terminals/" + ok.json().get("id").asText());
    }

    @Test
    void theDashboardsOwnChangesStillWork() throws Exception {
      var r = send("POST", "/api/terminals", "{\"argv\": [\"sleep\", \"30\"]}", Map.of("Cookie", cookie,
          "Origin", s.base, "Content-Type", "application/json"));
      assertThat(r.status()).isEqualTo(201);
      String id = r.json().get("id").asText();
      try (WsClient ws = WsClient.connect("ws://127.0.0.1:" + s.server.port() + "/ws/terminals/" + id,
          Map.of("Cookie", cookie, "Origin", s.base))) {
        assertThat(ws).isNotNull();
      }
      assertThat(send("DELETE", "/api/terminals/" + id, null, Map.of("Cookie", cookie, "Origin", "null")).status())
          .isEqualTo(403);
      assertThat(send("DELETE", "/api/terminals/" + id, null, Map.of("Cookie", cookie, "Origin", s.base)).status())
          .isEqualTo(204);
    }

    @Test
    void noPageOfThisServerCanBeFramedOrEmbeddedElsewhere() {
      for (String path : List.of("/", "/index.html", "/js/app.js", "/api/health", "/no-such-page")) {
        var r = send("GET", path, null, Map.of("Cookie", cookie));
        assertThat(r.headers().firstValue("X-Frame-Options")).as(path).contains("DENY");
        assertThat(r.headers().firstValue("Cross-Origin-Resource-Policy")).as(path).contains("same-origin");
      }
      assertThat(send("GET", "/", null, Map.of("Cookie", cookie)).headers().allValues("Content-Security-Policy"))
          .anySatisfy(v -> assertThat(v).contains("frame-ancestors 'none'"));
      var signIn = send("GET", "/", null, Map.of());
      assertThat(signIn.headers().firstValue("X-Frame-Options")).contains("DENY");
      assertThat(signIn.headers().firstValue("Content-Security-Policy")).get().asString().contains("frame-ancestors 'none'");
    }
  }

  @Nested
  class NonLoopbackBind {
    static TestServer s;

    @BeforeAll
    static void start() {
      // 0.0.0.0 is not loopback; the test still only talks to 127.0.0.1.
      s = TestServer.start("0.0.0.0", new ServeConfig.Access.Token(TOKEN, Optional.of(TOKEN_FILE)), false);
    }

    @AfterAll
    static void stop() {
      s.close();
    }

    @Test
    void theSameTokenRulesApply() {
      assertThat(s.sendRaw(HttpRequest.newBuilder(URI.create(s.base + "/api/terminals"))).status()).isEqualTo(401);
      assertThat(s.get("/api/health").status()).isEqualTo(200);
      assertThat(s.getWithHost("/api/health", "192.0.2.1:7420").status()).as("any Host: not a loopback-only server")
          .isEqualTo(200);
      // Callers from elsewhere are not told whose home the token file is in.
      var page = s.sendRaw(HttpRequest.newBuilder(URI.create(s.base + "/")));
      assertThat(page.status()).isEqualTo(401);
      assertThat(page.body()).contains("This agentdesk server needs its token").doesNotContain(TOKEN_FILE.toString());
      assertThat(s.sendRaw(HttpRequest.newBuilder(URI.create(s.base + "/api/health"))).body())
          .doesNotContain(TOKEN_FILE.toString());
    }
  }

  @Nested
  class NoToken {
    static TestServer s;

    @BeforeAll
    static void start() {
      s = TestServer.start("127.0.0.1", new ServeConfig.Access.None(), false);
    }

    @AfterAll
    static void stop() {
      s.close();
    }

    @Test
    void answersWithoutATokenButKeepsTheHostAndOriginChecks() throws Exception {
      var health = s.sendRaw(HttpRequest.newBuilder(URI.create(s.base + "/api/health")));
      assertThat(health.status()).isEqualTo(200);
      assertThat(health.json().get("token_required").asBoolean()).isFalse();
      assertThat(s.sendRaw(HttpRequest.newBuilder(URI.create(s.base + "/"))).status()).isEqualTo(200);
      try (WsClient ws = WsClient.connect("ws://127.0.0.1:" + s.server.port() + "/ws/events")) {
        assertThat(ws.await(m -> m.get("type").asText().equals("hello"), 5).get("token_required").asBoolean()).isFalse();
      }
      assertThat(s.getWithHost("/api/health", "evil.example:7420").status()).isEqualTo(403);
      assertThat(s.sendRaw(HttpRequest.newBuilder(URI.create(s.base + "/api/health")).header("Origin", "https://evil.example"))
          .status()).isEqualTo(403);
      // Without a token there is no cookie to ride on, but the redirect trick still sends Origin: null.
      var redirected = s.sendRaw(HttpRequest.newBuilder(URI.create(s.base + "/api/terminals")).header("Origin", "null")
          .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString("{\"argv\": [\"true\"]}")));
      assertThat(redirected.status()).isEqualTo(403);
      var textPlain = s.sendRaw(HttpRequest.newBuilder(URI.create(s.base + "/api/terminals"))
          .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString("{\"argv\": [\"true\"]}")));
      assertThat(textPlain.status()).isEqualTo(415);
      assertThat(s.sendRaw(HttpRequest.newBuilder(URI.create(s.base + "/api/terminals"))).json()).isEmpty();
    }
  }

  @Test
  void noTokenOnANonLoopbackBindCannotBeBuilt() {
    assertThatThrownBy(() -> TestServer.start("0.0.0.0", new ServeConfig.Access.None(), false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--no-token is refused for 0.0.0.0");
  }

  @Test
  void aTokenMustBeLongAndPlain() {
    assertThatThrownBy(() -> ServeConfig.Access.Token.of("short")).hasMessageContaining("at least 16 characters");
    assertThatThrownBy(() -> ServeConfig.Access.Token.of("with a space in it, long enough"))
        .hasMessageContaining("visible ASCII");
    assertThat(ServeConfig.Access.Token.of(TOKEN).toString()).doesNotContain(TOKEN);
  }

  @Test
  void tokensAndCookiesAreComparedAsDigests() {
    TokenCheck check = new TokenCheck(TOKEN);
    assertThat(check.tokenMatches(TOKEN)).isTrue();
    for (String wrong : List.of("", "x", TOKEN.substring(1), TOKEN + "x", TOKEN.toUpperCase(), TOKEN.replace('t', 'u'))) {
      assertThat(check.tokenMatches(wrong)).as("'%s'", wrong).isFalse();
    }
    assertThat(check.tokenMatches(null)).isFalse();
    assertThat(check.cookieValue()).isNotEqualTo(TOKEN).hasSize(43);
    assertThat(check.cookieMatches(check.cookieValue())).isTrue();
    assertThat(check.cookieMatches(TOKEN)).isFalse();
    assertThat(check.tokenMatches(check.cookieValue())).isFalse();
    assertThat(new TokenCheck(TOKEN + "x").cookieValue()).as("a new token, a new cookie").isNotEqualTo(check.cookieValue());
  }

  @Test
  void theSignInRedirectKeepsTheQueryAndCannotLeaveTheServer() {
    assertThat(AccessGuard.withoutToken("/", "token=abc")).isEqualTo("/");
    assertThat(AccessGuard.withoutToken("/", "a=1&token=abc&b=2")).isEqualTo("/?a=1&b=2");
    assertThat(AccessGuard.withoutToken("/", "to%6Ben=abc&x")).isEqualTo("/?x");
    assertThat(AccessGuard.withoutToken("/index.html", null)).isEqualTo("/index.html");
    assertThat(AccessGuard.withoutToken("//evil.example", "token=abc")).isEqualTo("/");
    assertThat(AccessGuard.withoutToken("/\\evil.example", "token=abc")).isEqualTo("/");
    assertThat(AccessGuard.withoutToken("/a\r\nSet-Cookie: x=y", "token=abc")).isEqualTo("/");
    assertThat(AccessGuard.withoutToken("/", "token=abc&x=<script>")).isEqualTo("/");
  }

  @Test
  void loopbackNamesAreRecognised() {
    assertThat(ServeConfig.isLoopback("127.0.0.1")).isTrue();
    assertThat(ServeConfig.isLoopback("127.3.4.5")).isTrue();
    assertThat(ServeConfig.isLoopback("::1")).isTrue();
    assertThat(ServeConfig.isLoopback("localhost")).isTrue();
    assertThat(ServeConfig.isLoopback("0.0.0.0")).isFalse();
    assertThat(AccessGuard.hostName("[::1]:7420")).isEqualTo("[::1]");
    assertThat(AccessGuard.hostName("localhost:1")).isEqualTo("localhost");
  }
}
