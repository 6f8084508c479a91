package dev.agentdesk.app.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI's client of a running server: the token from the token file, clear errors. */
class ServerClientTest {

  @Test
  void readsTheTokenFileTheServerUsesAndCallsTheApiAndWebSockets(@TempDir Path tmp) throws Exception {
    Path file = tmp.resolve("agentdesk/token");
    TokenFile.Loaded loaded = TokenFile.readOrCreate(file);
    try (TestServer s = TestServer.start("127.0.0.1", new ServeConfig.Access.Token(loaded.token(), Optional.of(file)), false)) {
      ServerClient client = ServerClient.withTokenFile(URI.create(s.base), file);
      assertThat(client.base()).isEqualTo(URI.create(s.base + "/"));
      assertThat(client.get("/api/health").status()).isEqualTo(200);
      assertThat(client.get("api/health").ok()).isTrue();
      var created = client.post("/api/terminals", "{\"argv\": [\"sleep\", \"30\"]}");
      assertThat(created.status()).isEqualTo(201);
      String id = Json.MAPPER.readTree(created.body()).get("id").asText();
      assertThat(client.delete("/api/terminals/" + id).ok()).isTrue();

      CompletableFuture<String> first = new CompletableFuture<>();
      WebSocket ws = client.webSocket("/ws/events", new WebSocket.Listener() {
        @Override
        public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
          first.complete(data.toString());
          return null;
        }
      }).get(5, TimeUnit.SECONDS);
      assertThat(first.get(5, TimeUnit.SECONDS)).contains("\"type\":\"hello\"");
      ws.abort();
    }
  }

  @Test
  void aRefusedTokenAndANonAnsweringServerAreClearErrors(@TempDir Path tmp) throws Exception {
    Path file = tmp.resolve("token");
    TokenFile.readOrCreate(file);
    try (TestServer s = TestServer.start()) {
      ServerClient client = ServerClient.withTokenFile(URI.create(s.base), file);
      assertThatThrownBy(() -> client.get("/api/health")).isInstanceOf(ServerClient.ServerClientException.class)
          .hasMessageContaining("refused the token in " + file)
          .hasMessageContaining("another token file (--token-file)");
    }
    int freePort;
    try (var socket = new java.net.ServerSocket(0)) {
      freePort = socket.getLocalPort();
    }
    ServerClient nobody = ServerClient.withToken(URI.create("http://127.0.0.1:" + freePort), Optional.of("x".repeat(20)));
    assertThatThrownBy(() -> nobody.get("/api/health")).isInstanceOf(ServerClient.ServerClientException.class)
        .hasMessageContaining("no agentdesk server answers at http://127.0.0.1:" + freePort + "/");
    assertThatThrownBy(() -> ServerClient.withTokenFile(URI.create("http://127.0.0.1:1"), tmp.resolve("missing")))
        .isInstanceOf(TokenFile.TokenFileException.class).hasMessageContaining("there is no token file");
    assertThat(Files.exists(tmp.resolve("missing"))).isFalse();
  }
}
