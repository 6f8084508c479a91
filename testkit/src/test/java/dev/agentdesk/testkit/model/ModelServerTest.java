package dev.agentdesk.testkit.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The scripted model server over real HTTP: the Anthropic wire format, steps, attempts and the record. */
class ModelServerTest {
  static ModelServer server;
  static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void start() {
    server = ModelServer.start();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static HttpResponse<String> post(String path, String body) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + path)).timeout(Duration.ofSeconds(10))
        .header("x-api-key", "k").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static String messages(boolean stream, String... turns) {
    StringBuilder m = new StringBuilder();
    for (int i = 0; i < turns.length; i++) {
      if (i > 0) {
        m.append(',');
      }
      m.append(turns[i]);
    }
    return "{\"model\":\"claude-test\",\"stream\":" + stream + ",\"tools\":[{\"name\":\"Bash\"}],\"messages\":[" + m + "]}";
  }

  static final String PROMPT = "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"<system-reminder>x</system-reminder>\"},"
      + "{\"type\":\"text\",\"text\":\"do it MARK\"}]}";

  @Test
  void aStreamedReplyIsAnthropicServerSentEventsWithTheExactUsage() throws Exception {
    server.add(Script.of("s-text", Reply.text("Hello there").withUsage(new Reply.Usage(1200, 34, 500, 66)).slow(Duration.ZERO, 3)));
    HttpResponse<String> r = post("/v1/messages?beta=true", messages(true, PROMPT.replace("MARK", "s-text")));
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("content-type")).hasValue("text/event-stream");
    List<String> types = r.body().lines().filter(l -> l.startsWith("event: ")).map(l -> l.substring(7)).toList();
    assertThat(types).containsExactly("message_start", "content_block_start", "content_block_delta",
        "content_block_delta", "content_block_delta", "content_block_stop", "message_delta", "message_stop");
    assertThat(r.body()).contains("\"usage\":{\"input_tokens\":1200,\"cache_creation_input_tokens\":500,"
        + "\"cache_read_input_tokens\":66,\"output_tokens\":1}")
        .contains("\"stop_reason\":\"end_turn\"").contains("\"output_tokens\":34}");
    String text = String.join("", r.body().lines().filter(l -> l.contains("text_delta"))
        .map(l -> l.replaceAll(".*\"text\":\"(.*)\"}}$", "$1")).toList());
    assertThat(text).isEqualTo("Hello there");
  }

  @Test
  void stepsFollowTheConversationAndFailuresFollowTheAttempts() throws Exception {
    Reply.Failure busy = new Reply.Failure(429, "rate_limit_error", "slow down", Map.of("retry-after", "3"));
    server.add(Script.ofSteps("s-steps", Step.of(Reply.tool("Bash", "{\"command\":\"ls\"}")),
        Step.retried(busy, 1, Reply.text("listed"))));
    String prompt = PROMPT.replace("MARK", "s-steps");
    HttpResponse<String> first = post("/v1/messages", messages(false, prompt));
    assertThat(first.body()).contains("\"type\":\"tool_use\"").contains("\"name\":\"Bash\"")
        .contains("\"input\":{\"command\":\"ls\"}").contains("\"stop_reason\":\"tool_use\"");

    String afterTool = messages(false, prompt, "{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\"}]}",
        "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"content\":\"a b\"}]}");
    HttpResponse<String> refused = post("/v1/messages", afterTool);
    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.headers().firstValue("retry-after")).hasValue("3");
    assertThat(refused.body()).contains("\"type\":\"error\"").contains("\"type\":\"rate_limit_error\"")
        .contains("\"message\":\"slow down\"");
    HttpResponse<String> retried = post("/v1/messages", afterTool);
    assertThat(retried.statusCode()).isEqualTo(200);
    assertThat(retried.body()).contains("listed");

    List<ModelRequest> seen = server.requestsFor("s-steps");
    assertThat(seen).extracting(ModelRequest::step).containsExactly(0, 1, 1);
    assertThat(seen.get(0).prompt()).isEqualTo("<system-reminder>x</system-reminder>\ndo it s-steps");
    assertThat(seen.get(0).tools()).containsExactly("Bash");
    assertThat(seen.get(0).header("X-Api-Key")).isEqualTo("k");
    assertThat(seen.get(1).reply()).isEqualTo(busy);
    assertThat(server.await("the retry", r -> r.step() == 1 && r.reply() instanceof Reply.Message,
        Duration.ofSeconds(1)).script()).isEqualTo("s-steps");
  }

  @Test
  void aReplyBuiltFromTheRequestUsesWhatTheToolResultSaid() throws Exception {
    // a server of its own: the other tests' awaits look at every request of the shared one
    try (ModelServer own = ModelServer.start()) {
      // step 1 names the ref the tool result of step 0 gave, which is known only when that request arrives
      own.add(Script.of("s-from", Reply.tool("Look", "{}"), Reply.fromRequest(body -> {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("ref (e\\d+)").matcher(body);
        return m.find() ? Reply.tool("Click", "{\"ref\":\"" + m.group(1) + "\"}") : Reply.text("no ref");
      })));
      String afterLook = messages(false, PROMPT.replace("MARK", "s-from"),
          "{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\"}]}",
          "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"content\":\"button ref e42\"}]}");
      HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(own.baseUrl() + "/v1/messages"))
          .timeout(Duration.ofSeconds(10)).header("x-api-key", "k").POST(HttpRequest.BodyPublishers.ofString(afterLook))
          .build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r.body()).contains("\"name\":\"Click\"").contains("\"input\":{\"ref\":\"e42\"}");
      // the record holds the reply that was sent, not the builder
      assertThat(own.requestsFor("s-from")).singleElement()
          .satisfies(q -> assertThat(q.reply()).isInstanceOf(Reply.Message.class));
    }
  }

  @Test
  void sideCallsUnknownPathsAndTokenCountsAreAnsweredAndRecorded() throws Exception {
    server.add(Script.of("s-side", Reply.text("scripted")));
    // a call without tools (a title generation) carrying the prompt is not the script's
    HttpResponse<String> side = post("/v1/messages", "{\"model\":\"m\",\"messages\":[" + PROMPT.replace("MARK", "s-side") + "]}");
    assertThat(side.body()).contains(ModelServer.DONE.blocks().get(0) instanceof Reply.Text t ? t.text() : "?");
    assertThat(post("/v1/messages/count_tokens", "{\"messages\":[]}").body()).startsWith("{\"input_tokens\":");
    assertThat(post("/v1/other", "{}").statusCode()).isEqualTo(404);
    assertThat(post("/v1/messages", "{not json").statusCode()).isEqualTo(400);
    assertThat(server.requests()).anySatisfy(r -> assertThat(r.path()).isEqualTo("/v1/other"));
    assertThat(server.requestsFor("s-side")).isEmpty();
  }
}
