package dev.agentdesk.aci.runtime.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.aci.runtime.AciRuntime;
import dev.agentdesk.aci.runtime.AciRuntimeException;
import dev.agentdesk.aci.runtime.server.AciServer;
import dev.agentdesk.testkit.XDisplay;
import dev.agentdesk.testkit.XvfbExtension;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Idle timeout, lifetime, connection cap and startup refusals, each on its own short-limit runtime. */
@ExtendWith(XvfbExtension.class)
class LimitsTest {
  private static AciRuntime start(XDisplay x, SessionLimits limits) {
    return AciRuntime.start(new AciRuntime.Options("127.0.0.1", 0, "tok", false, List.of(), x.name(), limits,
        "test"));
  }

  @Test
  void anIdleAuthenticatedSessionIsClosedWithTheReferenceError(XDisplay x) {
    try (AciRuntime rt = start(x, new SessionLimits(Duration.ofSeconds(10), Duration.ofMillis(600),
        Duration.ofMinutes(5), SessionLimits.MAX_MESSAGE_BYTES));
        WireClient c = WireClient.authenticated(rt.port(), "tok")) {
      c.assertAlive();
      JsonNode r = c.next(5000);
      assertThat(r.path("error").asText()).isEqualTo("authenticated connection idle timeout");
      assertThat(r.path("call_id").asText()).isEqualTo("?");
      c.expectClosed();
    }
  }

  @Test
  void aBusySessionStillEndsAtItsMaximumLifetime(XDisplay x) throws Exception {
    try (AciRuntime rt = start(x, new SessionLimits(Duration.ofSeconds(10), Duration.ofSeconds(30),
        Duration.ofMillis(1500), SessionLimits.MAX_MESSAGE_BYTES));
        WireClient c = WireClient.authenticated(rt.port(), "tok")) {
      long deadline = System.nanoTime() + 10_000_000_000L;
      JsonNode last = null;
      // keep the session busy (so idleness cannot be the reason) until the lifetime ends it
      while (System.nanoTime() < deadline) {
        try {
          c.send("{\"type\":\"ping\",\"t\":1}");
        } catch (java.util.concurrent.CompletionException closedMeanwhile) {
          // the error is already in the inbox
        }
        last = c.next(5000);
        if (!last.path("type").asText().equals("pong")) {
          break;
        }
        Thread.sleep(100);
      }
      assertThat(last.path("error").asText()).isEqualTo("connection max lifetime exceeded");
      c.expectClosed();
    }
  }

  @Test
  void the65thConnectionIsRefusedAtTheUpgrade(XDisplay x) {
    try (AciRuntime rt = start(x, SessionLimits.defaults())) {
      HttpClient http = HttpClient.newHttpClient();
      List<WebSocket> open = new ArrayList<>();
      try {
        for (int i = 0; i < AciServer.MAX_CONNECTIONS; i++) {
          open.add(http.newWebSocketBuilder().buildAsync(URI.create("ws://127.0.0.1:" + rt.port() + "/"),
              new WebSocket.Listener() {}).join());
        }
        assertThatThrownBy(() -> http.newWebSocketBuilder()
            .buildAsync(URI.create("ws://127.0.0.1:" + rt.port() + "/"), new WebSocket.Listener() {}).join())
            .isInstanceOf(CompletionException.class)
            .cause().isInstanceOf(WebSocketHandshakeException.class)
            .satisfies(e -> assertThat(((WebSocketHandshakeException) e).getResponse().statusCode()).isEqualTo(503));
      } finally {
        open.forEach(WebSocket::abort);
      }
    }
  }

  @Test
  void startupRefusesAnEmptyTokenAndAWildcardOrigin(XDisplay x) {
    assertThatThrownBy(() -> new AciRuntime.Options("127.0.0.1", 0, "", false, List.of(), x.name(), null, "t"))
        .isInstanceOf(AciRuntimeException.class).hasMessage("a TCP listener requires a non-empty token");
    assertThatThrownBy(() -> AciRuntime.start(new AciRuntime.Options("127.0.0.1", 0, "t", false, List.of("*"),
        x.name(), null, "t"))).hasMessageStartingWith("--allowed-origin '*' is refused");
    assertThatThrownBy(() -> AciRuntime.start(new AciRuntime.Options("127.0.0.1", 0, "t", false, List.of(),
        ":4242", null, "t"))).hasMessageStartingWith("X11 display not available yet");
  }
}
