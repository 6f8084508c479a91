package dev.agentdesk.app.serve.terminals;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.app.serve.TestServer;
import dev.agentdesk.app.serve.WsClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Terminals through the API and the WebSockets, with real PTYs running real programs. */
class TerminalsApiTest {
  static TestServer s;

  @BeforeAll
  static void start() {
    s = TestServer.start();
  }

  @AfterAll
  static void stop() {
    s.close();
  }

  static String create(String body) {
    var r = s.post("/api/terminals", body);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json().get("id").asText();
  }

  static JsonNode awaitTerminal(String id, Predicate<JsonNode> p, int seconds) throws InterruptedException {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(seconds));
    JsonNode last = null;
    while (Instant.now().isBefore(deadline)) {
      last = s.get("/api/terminals/" + id).json();
      if (p.test(last)) {
        return last;
      }
      Thread.sleep(50);
    }
    throw new AssertionError("terminal never matched; last: " + last);
  }

  static boolean screenContains(JsonNode t, String text) {
    return String.join("\n", s.get("/api/terminals/" + t.get("id").asText() + "/snapshot?format=text").body()).contains(text);
  }

  @Test
  void badCreateRequestsAre400sThatSayWhy() {
    String[][] cases = {
        {"{}", "argv"},
        {"{\"argv\": []}", "argv"},
        {"{\"argv\": [\"cat\"], \"cols\": 5}", "cols"},
        {"{\"argv\": [\"cat\"], \"rows\": 1000}", "rows"},
        {"{\"argv\": [\"cat\"], \"agent\": \"hal9000\"}", "unknown agent"},
        {"{\"argv\": [\"cat\"], \"cwd\": \"relative/dir\"}", "cwd"},
        {"{\"argv\": [\"cat\"], \"cwd\": \"/no/such/folder\"}", "cwd"},
        {"{\"argv\": [\"cat\"], \"colour\": 1}", "unknown field 'colour'"},
        {"{\"argv\": \"cat\"}", "argv"},
        {"not json", "not valid JSON"},
        // NUL bytes, which no argument, variable or path can hold: typed 400s, not 500s
        {"{\"argv\": [\"ca\\u0000t\"]}", "argv[0] contains a NUL byte"},
        {"{\"argv\": [\"cat\", \"a\\u0000b\"]}", "argv[1] contains a NUL byte"},
        {"{\"argv\": [\"cat\"], \"cwd\": \"/tmp\\u0000/x\"}", "cwd is not a folder name"},
        {"{\"argv\": [\"cat\"], \"env\": {\"A\": \"x\\u0000y\"}}", "environment variable 'A'"},
        {"{\"argv\": [\"cat\"], \"env\": {\"A=B\": \"x\"}}", "no '=' in the name"},
    };
    for (String[] c : cases) {
      var r = s.post("/api/terminals", c[0]);
      assertThat(r.status()).as(c[0] + " → " + r.body()).isEqualTo(400);
      assertThat(r.json().get("message").asText()).as(c[0]).containsIgnoringCase(c[1]);
      assertThat(r.json().get("code").asText()).as(c[0]).isIn("bad_request", "invalid_json");
    }
    assertThat(s.get("/api/terminals/nope").status()).isEqualTo(404);
    assertThat(s.post("/api/terminals/nope/input", "{\"text\": \"x\"}").status()).isEqualTo(404);
  }

  @Test
  void inputKeysResizeSnapshotAndKill() throws Exception {
    String id = create("{\"argv\": [\"cat\"], \"cols\": 60, \"rows\": 10}");
    JsonNode t = s.get("/api/terminals/" + id).json();
    assertThat(t.get("cols").asInt()).isEqualTo(60);
    assertThat(t.get("exited").asBoolean()).isFalse();
    assertThat(s.get("/api/terminals").json()).extracting(x -> x.get("id").asText()).contains(id);

    assertThat(s.post("/api/terminals/" + id + "/input", "{\"text\": \"hello there\"}").status()).isEqualTo(204);
    assertThat(s.post("/api/terminals/" + id + "/key", "{\"key\": \"enter\"}").status()).isEqualTo(204);
    awaitTerminal(id, x -> screenContains(x, "hello there\nhello there"), 10);

    var badKey = s.post("/api/terminals/" + id + "/key", "{\"key\": \"hyperspace\"}");
    assertThat(badKey.status()).isEqualTo(400);
    assertThat(badKey.json().get("message").asText()).contains("unknown key");
    assertThat(s.post("/api/terminals/" + id + "/input", "{\"text\": \"\"}").status()).isEqualTo(400);

    var resized = s.post("/api/terminals/" + id + "/resize", "{\"cols\": 80, \"rows\": 20}");
    assertThat(resized.status()).isEqualTo(200);
    assertThat(resized.json().get("cols").asInt()).isEqualTo(80);
    assertThat(s.post("/api/terminals/" + id + "/resize", "{\"cols\": 1, \"rows\": 20}").status()).isEqualTo(400);

    JsonNode snap = s.get("/api/terminals/" + id + "/snapshot").json();
    assertThat(snap.get("rows").asInt()).isEqualTo(20);
    assertThat(snap.get("lines").get(0).asText()).isEqualTo("hello there");
    assertThat(s.get("/api/terminals/" + id + "/snapshot?format=xml").status()).isEqualTo(400);

    assertThat(s.delete("/api/terminals/" + id).status()).isEqualTo(204);
    assertThat(s.get("/api/terminals/" + id).status()).isEqualTo(404);
  }

  @Test
  void anExitedProgramKeepsItsStatusAndRefusesInput() throws Exception {
    String id = create("{\"argv\": [\"sh\", \"-c\", \"echo bye; exit 3\"]}");
    JsonNode t = awaitTerminal(id, x -> x.get("exited").asBoolean(), 10);
    assertThat(t.get("exit_code").asInt()).isEqualTo(3);
    assertThat(t.get("state").get("exited").asBoolean()).isTrue();
    assertThat(t.get("state").get("exit_code").asInt()).isEqualTo(3);
    var r = s.post("/api/terminals/" + id + "/input", "{\"text\": \"x\"}");
    assertThat(r.status()).isEqualTo(409);
    assertThat(r.json().get("code").asText()).isEqualTo("conflict");
    s.delete("/api/terminals/" + id);
  }

  @Test
  void snapshotStripsStructuralTokens() throws Exception {
    String id = create("{\"argv\": [\"sh\", \"-c\", \"printf 'intent: Reading the parser (Parser)\\\\nplain output\\\\nsuggest: [ Run tests | Review diff ]\\\\n'; sleep 5\"], \"agent\": \"claude\"}");
    awaitTerminal(id, x -> screenContains(x, "plain output"), 10);
    String text = s.get("/api/terminals/" + id + "/snapshot?format=text").body();
    assertThat(text).contains("plain output").doesNotContain("intent:").doesNotContain("suggest:");
    JsonNode snap = s.get("/api/terminals/" + id + "/snapshot").json();
    assertThat(snap.get("lines").toString()).doesNotContain("intent:");
    s.delete("/api/terminals/" + id);
  }

  @Test
  void captureRecordsBothDirectionsAndDownloadsAsTcap() throws Exception {
    String id = create("{\"argv\": [\"cat\"]}");
    assertThat(s.get("/api/terminals/" + id + "/capture.tcap").status()).isEqualTo(404);
    JsonNode started = s.post("/api/terminals/" + id + "/capture", "").json();
    assertThat(started.get("active").asBoolean()).isTrue();
    s.post("/api/terminals/" + id + "/input", "{\"text\": \"ping\\r\"}");
    awaitTerminal(id, x -> x.get("capture").get("bytes").asLong() >= 8, 10);
    JsonNode stopped = s.delete("/api/terminals/" + id + "/capture").json();
    assertThat(stopped.get("active").asBoolean()).isFalse();
    var file = s.http.send(s.request("/api/terminals/" + id + "/capture.tcap").build(),
        java.net.http.HttpResponse.BodyHandlers.ofByteArray());
    assertThat(file.statusCode()).isEqualTo(200);
    byte[] bytes = file.body();
    assertThat(new String(bytes, 0, 9, StandardCharsets.US_ASCII)).isEqualTo("TUICCAP1\n");
    // First record: an input record (direction 1) carrying "ping\r".
    assertThat(bytes[9]).isEqualTo((byte) 1);
    assertThat(new String(bytes, 9 + 1 + 8 + 4, 5, StandardCharsets.US_ASCII)).isEqualTo("ping\r");
    s.delete("/api/terminals/" + id);
  }

  @Test
  void terminalSocketSendsARepaintThenTheProgramsBytesAndTakesInput() throws Exception {
    String id = create("{\"argv\": [\"bash\", \"-c\", \"printf '\\\\033[31mbefore\\\\033[m\\\\n'; exec cat\"], \"cols\": 40, \"rows\": 8}");
    awaitTerminal(id, x -> x.path("preview").toString().contains("before"), 10);
    try (WsClient ws = s.ws("/ws/terminals/" + id)) {
      JsonNode reset = ws.await(m -> m.get("type").asText().equals("reset"), 5);
      assertThat(reset.get("cols").asInt()).isEqualTo(40);
      assertThat(reset.get("rows").asInt()).isEqualTo(8);
      ws.await(m -> m.get("type").asText().equals("binary"), 5);
      // The repaint: a full reset, then the red text the program printed before we joined.
      String repaint = ws.awaitBinary(t -> t.contains("before"), 5);
      assertThat(repaint).startsWith("\u001bc").contains("\u001b[0;31mbefore");
      ws.await(m -> m.get("type").asText().equals("state"), 5);

      ws.send("{\"type\": \"input\", \"text\": \"typed in the browser\"}");
      ws.send("{\"type\": \"key\", \"key\": \"enter\"}");
      ws.sendBinary("raw bytes\r".getBytes(StandardCharsets.UTF_8));
      // cat echoes through the PTY: the live bytes follow the repaint on the same stream.
      // (the tty's echo and cat's copy of each line; the three inputs may reach cat in one read)
      ws.awaitBinary(t -> t.split("typed in the browser", -1).length == 3 && t.split("raw bytes", -1).length == 3, 10);

      ws.send("{\"type\": \"warp\"}");
      JsonNode err = ws.await(m -> m.get("type").asText().equals("error"), 5);
      assertThat(err.get("code").asText()).isEqualTo("bad_request");
      ws.send("{\"type\": \"key\", \"key\": \"nonsense-key\"}");
      assertThat(ws.await(m -> m.get("type").asText().equals("error"), 5).get("message").asText()).contains("unknown key");
      ws.send("not json");
      assertThat(ws.await(m -> m.get("type").asText().equals("error"), 5).get("code").asText()).isEqualTo("invalid_json");

      ws.send("{\"type\": \"resize\", \"cols\": 50, \"rows\": 9}");
      JsonNode resized = ws.await(m -> m.get("type").asText().equals("resize"), 5);
      assertThat(resized.get("cols").asInt()).isEqualTo(50);
      assertThat(resized.get("rows").asInt()).isEqualTo(9);
      assertThat(s.get("/api/terminals/" + id).json().get("cols").asInt()).isEqualTo(50);
    }
    s.delete("/api/terminals/" + id);
  }

  @Test
  void aSocketForAnUnknownTerminalIsRefused() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> s.ws("/ws/terminals/nope"))
        .rootCause().hasMessageContaining("404");
  }

  @Test
  void choicePromptSetsAwaitingAndTheSingleKeyReplyClearsIt() throws Exception {
    try (WsClient events = s.ws("/ws/events")) {
      String id = create("{\"argv\": " + StandIns.argv("choice-agent.sh") + ", \"agent\": \"claude\", \"cols\": 100, \"rows\": 30}");
      JsonNode waiting = awaitTerminal(id, x -> x.path("state").path("choice_prompt").isObject(), 15);
      JsonNode prompt = waiting.get("state").get("choice_prompt");
      assertThat(waiting.get("state").get("awaiting_input").asBoolean()).isTrue();
      assertThat(prompt.get("title").asText()).contains("Do you want to make this edit");
      assertThat(prompt.get("options")).hasSize(3);
      assertThat(prompt.get("options").get(2).get("destructive").asBoolean()).isTrue();
      events.await(m -> m.get("type").asText().equals("terminal-state") && m.get("terminal_id").asText().equals(id)
          && m.get("state").get("awaiting_input").asBoolean(), 10);

      assertThat(s.post("/api/terminals/" + id + "/key", "{\"key\": \"1\"}").status()).isEqualTo(204);
      JsonNode answered = awaitTerminal(id, x -> !x.get("state").get("awaiting_input").asBoolean()
          && x.get("state").get("pr_urls").size() > 0, 15);
      assertThat(answered.get("state").get("choice_prompt").isNull()).isTrue();
      assertThat(answered.get("state").get("pr_urls").get(0).get("number").asInt()).isEqualTo(42);
      assertThat(answered.get("state").get("pr_urls").get(0).get("platform").asText()).isEqualTo("github");
      awaitTerminal(id, x -> x.get("state").get("usage").isObject(), 10);
      assertThat(s.get("/api/terminals/" + id).json().get("state").get("usage").get("percentage").asInt()).isEqualTo(85);
      JsonNode limited = awaitTerminal(id, x -> !x.get("state").get("rate_limited_until").isNull(), 10);
      java.time.Instant until = java.time.Instant.parse(limited.get("state").get("rate_limited_until").asText());
      assertThat(until).isBetween(java.time.Instant.now(), java.time.Instant.now().plusSeconds(31));
      assertThat(screenContains(answered, "Answered 1")).isTrue();
      s.delete("/api/terminals/" + id);
      events.await(m -> m.get("type").asText().equals("terminal-removed") && m.get("terminal_id").asText().equals(id), 5);
    }
  }
}
