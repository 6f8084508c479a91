package dev.agentdesk.app.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Who may call the API: tokens on non-loopback binds, Host and Origin checks on loopback. */
class AccessTest {
  static final String TOKEN = "test-token-0123456789abcdef";

  @Nested
  class NonLoopbackBind {
    static TestServer s;

    @BeforeAll
    static void start() {
      // 0.0.0.0 is not loopback; the test still only talks to 127.0.0.1.
      s = TestServer.start("0.0.0.0", Optional.of(TOKEN), false);
    }

    @AfterAll
    static void stop() {
      s.close();
    }

    @Test
    void refusesApiCallsWithoutTheToken() {
      var r = s.sendRaw(HttpRequest.newBuilder(URI.create(s.base + "/api/health")));
      assertThat(r.status()).isEqualTo(401);
      assertThat(r.json().get("code").asText()).isEqualTo("unauthorized");
      assertThat(r.headers().firstValue("WWW-Authenticate")).isPresent();
    }

    @Test
    void refusesAWrongToken() {
      var r = s.sendRaw(HttpRequest.newBuilder(URI.create(s.base + "/api/health"))
          .header("Authorization", "Bearer " + TOKEN + "x"));
      assertThat(r.status()).isEqualTo(401);
      assertThat(r.json().get("message").asText()).isEqualTo("wrong token");
    }

    @Test
    void acceptsTheTokenAsBearerHeaderOrQueryParameter() {
      assertThat(s.get("/api/health").status()).isEqualTo(200);
      assertThat(s.get("/api/health").json().get("token_required").asBoolean()).isTrue();
      var q = s.sendRaw(HttpRequest.newBuilder(URI.create(s.base + "/api/health?token=" + TOKEN)));
      assertThat(q.status()).isEqualTo(200);
    }

    @Test
    void unknownPathsAreRefusedBeforeTheyAreLookedUp() {
      var r = s.sendRaw(HttpRequest.newBuilder(URI.create(s.base + "/api/terminals")));
      assertThat(r.status()).isEqualTo(401);
    }

    @Test
    void refusesTheEventWebSocketWithoutTheToken() {
      assertThatThrownBy(() -> WsClient.connect("ws://127.0.0.1:" + s.server.port() + "/ws/events"))
          .isInstanceOf(CompletionException.class)
          .rootCause().hasMessageContaining("401");
    }

    @Test
    void acceptsTheEventWebSocketWithTheToken() throws Exception {
      try (WsClient ws = WsClient.connect("ws://127.0.0.1:" + s.server.port() + "/ws/events?token=" + TOKEN)) {
        var hello = ws.await(m -> m.get("type").asText().equals("hello"), 5);
        assertThat(hello.get("token_required").asBoolean()).isTrue();
      }
    }

    @Test
    void theDashboardPageItselfLoadsSoItCanAskForTheToken() {
      var r = s.sendRaw(HttpRequest.newBuilder(URI.create(s.base + "/")));
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.body()).doesNotContain(TOKEN);
    }
  }

  @Nested
  class LoopbackBind {
    static TestServer s;

    @BeforeAll
    static void start() {
      s = TestServer.start();
    }

    @AfterAll
    static void stop() {
      s.close();
    }

    @Test
    void needsNoToken() {
      assertThat(s.get("/api/health").status()).isEqualTo(200);
      assertThat(s.getWithHost("/api/health", "localhost:" + s.server.port()).status()).isEqualTo(200);
    }

    @Test
    void refusesAForeignHostNameAgainstDnsRebinding() {
      var r = s.getWithHost("/api/health", "evil.example:7420");
      assertThat(r.status()).isEqualTo(403);
      assertThat(r.json().get("code").asText()).isEqualTo("forbidden");
    }

    @Test
    void refusesCrossOriginRequests() {
      var r = s.sendRaw(HttpRequest.newBuilder(URI.create(s.base + "/api/health")).header("Origin", "https://evil.example"));
      assertThat(r.status()).isEqualTo(403);
      var same = s.sendRaw(HttpRequest.newBuilder(URI.create(s.base + "/api/health")).header("Origin", s.base));
      assertThat(same.status()).isEqualTo(200);
    }
  }

  @Test
  void aNonLoopbackConfigWithoutTokenCannotBeBuilt() {
    assertThatThrownBy(() -> TestServer.start("0.0.0.0", Optional.empty(), false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("requires a token");
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
