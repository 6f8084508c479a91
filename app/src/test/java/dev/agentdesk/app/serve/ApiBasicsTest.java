package dev.agentdesk.app.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Health, static files and the error contract, against a real server on a random port. */
class ApiBasicsTest {
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
  void healthSaysOkAndNamesTheVersion() {
    var r = s.get("/api/health");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.json().get("status").asText()).isEqualTo("ok");
    assertThat(r.json().get("version").asText()).isNotBlank().doesNotContain("${");
    assertThat(r.json().get("token_required").asBoolean()).isTrue();
    assertThat(r.json().get("features").has("history")).isTrue();
  }

  @Test
  void dashboardIsServedFromTheJarWithASafeContentPolicy() {
    var r = s.get("/");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.body()).contains("<title>agentdesk</title>", "/js/app.js");
    assertThat(r.headers().firstValue("Content-Security-Policy")).get().asString().contains("default-src 'self'");
    assertThat(s.get("/js/app.js").status()).isEqualTo(200);
    assertThat(s.get("/css/app.css").status()).isEqualTo(200);
  }

  @Test
  void unknownApiPathIsAJson404() {
    var r = s.get("/api/nothing-here");
    assertThat(r.status()).isEqualTo(404);
    assertThat(r.json().get("code").asText()).isEqualTo("not_found");
    assertThat(r.json().get("message").asText()).contains("/api/nothing-here");
  }

  @Test
  void wrongMethodIsAJson4xx() {
    var r = s.post("/api/health", "{}");
    assertThat(r.status()).isBetween(400, 499);
    assertThat(r.json().get("code").asText()).isIn("method_not_allowed", "not_found");
  }

  @Test
  void malformedRequestLineGetsAJsonErrorWithoutStackTrace() throws Exception {
    try (Socket socket = new Socket("127.0.0.1", s.server.port())) {
      OutputStream out = socket.getOutputStream();
      out.write("GET /api/%zz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream buf = new ByteArrayOutputStream();
      in.transferTo(buf);
      String response = buf.toString(StandardCharsets.UTF_8);
      assertThat(response).startsWith("HTTP/1.1 400");
      assertThat(response).doesNotContain("at org.", "at io.", "Exception");
    }
  }

  @Test
  void openApiDocumentIsServedAsJson() {
    var r = s.get("/openapi.json");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.json().get("openapi").asText()).startsWith("3.");
  }
}
