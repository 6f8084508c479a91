package dev.agentdesk.app.serve.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.app.serve.Json;
import dev.agentdesk.app.serve.TestServer;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * serve's /mcp as a client that gets things wrong sees it: every transport error a JSON-RPC error
 * without the SDK's internals, no SSE stream on GET (405), SSE events without a shared id, and an
 * unknown tool named in its error.
 */
class McpTransportTest {
  static final String ACCEPT = "application/json, text/event-stream";
  static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
      + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
  static TestServer s;

  @BeforeAll
  static void start() {
    s = TestServer.start();
  }

  @AfterAll
  static void stop() {
    s.close();
  }

  static HttpResponse<String> send(String method, String accept, String session, String body) throws Exception {
    HttpRequest.Builder b = s.request("/mcp").header("Accept", accept).header("Content-Type", "application/json");
    if (session != null) {
      b.header("Mcp-Session-Id", session);
    }
    b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    return s.http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  static JsonNode assertCleanError(HttpResponse<String> r, int status, int code, String says) throws Exception {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    assertThat(r.body()).doesNotContain("stackTrace", "io.modelcontextprotocol", "java.", ".java", "lineNumber",
        "localizedMessage", "REDACTED");
    JsonNode n = Json.MAPPER.readTree(r.body());
    assertThat(n.get("jsonrpc").asText()).isEqualTo("2.0");
    assertThat(n.has("id")).isTrue();
    assertThat(n.get("error").get("code").asInt()).as(r.body()).isEqualTo(code);
    assertThat(n.get("error").get("message").asText()).contains(says);
    assertThat(n.size()).as("jsonrpc, id, error and nothing else").isEqualTo(3);
    return n;
  }

  @Test
  void everyTransportErrorIsAJsonRpcErrorWithoutInternals() throws Exception {
    String list = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}";
    assertCleanError(send("POST", ACCEPT, null, "{not json"), 400, -32700, "at line 1, column 2");
    assertCleanError(send("POST", ACCEPT, null, "[1, 2"), 400, -32700, "Parse error");
    assertCleanError(send("POST", ACCEPT, null, list), 400, -32600, "Session ID required");
    assertCleanError(send("POST", ACCEPT, "no-such-session", list), 404, -32001, "send initialize again");
    assertCleanError(send("DELETE", "*/*", null, null), 400, -32600, "Session ID required");
    assertCleanError(send("DELETE", "*/*", "no-such-session", null), 404, -32001, "Session not found");
    assertCleanError(send("POST", "text/html", null, INIT), 400, -32600, "Accept");
    var get = send("GET", "text/event-stream", null, null);
    assertCleanError(get, 405, -32600, "no SSE stream on GET");
    assertThat(get.headers().firstValue("Allow")).contains("POST, DELETE");
  }

  @Test
  void aSessionsEventsCarryNoSharedIdAndGetIs405() throws Exception {
    var init = send("POST", ACCEPT, null, INIT);
    assertThat(init.statusCode()).isEqualTo(200);
    String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    assertThat(send("POST", ACCEPT, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
        .statusCode()).isEqualTo(202);
    var listed = send("POST", ACCEPT, session, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\"}");
    assertThat(listed.headers().firstValue("Content-Type")).get().asString().startsWith("text/event-stream");
    assertThat(listed.body()).contains("event: message", "\"history_search\"").doesNotContain(session)
        .doesNotContainPattern("(?m)^id:");
    var get = send("GET", "text/event-stream", session, null);
    assertThat(get.statusCode()).isEqualTo(405);
    // A GET that tries to resume is told the same, at once.
    var resume = s.http.send(s.request("/mcp").header("Accept", "text/event-stream").header("Mcp-Session-Id", session)
        .header("Last-Event-ID", session).GET().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(resume.statusCode()).isEqualTo(405);

    var unknown = send("POST", ACCEPT, session,
        "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"histroy_search\",\"arguments\":{}}}");
    JsonNode event = Json.MAPPER.readTree(unknown.body().lines().filter(l -> l.startsWith("data:")).findFirst()
        .orElseThrow().substring(5));
    assertThat(event.get("error").get("message").asText()).contains("Unknown tool: histroy_search")
        .doesNotContain("invalid_tool_name");
    assertThat(send("DELETE", "*/*", session, null).statusCode()).isEqualTo(200);
    assertCleanError(send("POST", ACCEPT, session, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/list\"}"), 404,
        -32001, "Session not found");
  }

  @Test
  void theSseFilterDropsOnlyIdLines() throws Exception {
    var out = new java.io.ByteArrayOutputStream();
    try (var f = new McpHttpShield.SseIdFilter(out)) {
      f.write(("id: abc\nevent: message\ndata: {\"id\": 1, \"idea\": \"id: x\"}\n\nidle: 1\ni\n\n")
          .getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    assertThat(out.toString(java.nio.charset.StandardCharsets.UTF_8))
        .isEqualTo("event: message\ndata: {\"id\": 1, \"idea\": \"id: x\"}\n\nidle: 1\ni\n\n");
  }

}
