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

/** OpenAI Chat Completions, OpenAI Responses and Gemini generateContent served from the same scripts. */
class OtherDialectsTest {
  static ModelServer server;
  static final HttpClient HTTP = HttpClient.newHttpClient();
  static final Reply.Usage USAGE = new Reply.Usage(100, 7, 0, 20);

  @BeforeAll
  static void start() {
    server = ModelServer.start();
    server.add(Script.of("d-chat", Reply.tool("shell", "{\"cmd\":\"ls\"}"), Reply.text("all done").withUsage(USAGE)));
    server.add(Script.of("d-resp", Reply.tool("shell", "{\"cmd\":\"ls\"}"), Reply.text("all done").withUsage(USAGE)));
    server.add(Script.of("d-gem", Reply.tool("run_shell_command", "{\"command\":\"ls\"}"),
        Reply.text("all done").withUsage(USAGE)));
    server.add(Script.ofSteps("d-fail", Step.of(new Reply.Failure(429, "rate_limit_exceeded", "slow down",
        Map.of("retry-after", "2")))));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static HttpResponse<String> post(String path, String body) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + path)).timeout(Duration.ofSeconds(10))
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  static List<String> dataLines(String body) {
    return body.lines().filter(l -> l.startsWith("data: ")).map(l -> l.substring(6)).toList();
  }

  @Test
  void chatCompletionsStreamsToolCallsThenTextWithUsage() throws Exception {
    String tools = "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"shell\"}}]";
    HttpResponse<String> first = post("/v1/chat/completions", "{\"model\":\"gpt-x\",\"stream\":true," + tools
        + ",\"messages\":[{\"role\":\"system\",\"content\":\"s\"},{\"role\":\"user\",\"content\":\"go d-chat\"}]}");
    List<String> data = dataLines(first.body());
    assertThat(data.get(data.size() - 1)).isEqualTo("[DONE]");
    assertThat(first.body()).contains("\"tool_calls\":[{\"index\":0,").contains("\"name\":\"shell\"")
        .contains("\"arguments\":\"{\\\"cmd\\\":\\\"ls\\\"}\"").contains("\"finish_reason\":\"tool_calls\"");
    HttpResponse<String> second = post("/chat/completions", "{\"model\":\"gpt-x\",\"stream\":false," + tools
        + ",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"go d-chat\"}]},"
        + "{\"role\":\"assistant\",\"tool_calls\":[]},{\"role\":\"tool\",\"content\":\"a\"}]}");
    assertThat(second.body()).contains("\"content\":\"all done\"").contains("\"finish_reason\":\"stop\"")
        .contains("\"usage\":{\"prompt_tokens\":120,\"completion_tokens\":7,\"total_tokens\":127,"
            + "\"prompt_tokens_details\":{\"cached_tokens\":20}}");
    assertThat(server.requestsFor("d-chat")).extracting(ModelRequest::protocol, ModelRequest::step)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("openai-chat", 0), org.assertj.core.groups.Tuple.tuple("openai-chat", 1));
  }

  @Test
  void responsesStreamsTypedEventsAndCountsAnsweredCalls() throws Exception {
    String tools = "\"tools\":[{\"type\":\"function\",\"name\":\"shell\"}]";
    String prompt = "{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"go d-resp\"}]}";
    HttpResponse<String> first = post("/v1/responses", "{\"model\":\"gpt-5\",\"stream\":true," + tools
        + ",\"input\":[" + prompt + "]}");
    List<String> events = first.body().lines().filter(l -> l.startsWith("event: ")).map(l -> l.substring(7)).toList();
    assertThat(events).containsExactly("response.created", "response.output_item.added",
        "response.function_call_arguments.delta", "response.output_item.done", "response.completed");
    HttpResponse<String> second = post("/responses", "{\"model\":\"gpt-5\",\"stream\":true," + tools + ",\"input\":["
        + prompt + ",{\"type\":\"function_call\",\"call_id\":\"c\"},{\"type\":\"function_call_output\",\"call_id\":\"c\"}]}");
    assertThat(second.body()).contains("\"delta\":\"all done\"").contains("\"usage\":{\"input_tokens\":120,"
        + "\"input_tokens_details\":{\"cached_tokens\":20},\"output_tokens\":7");
    assertThat(server.requestsFor("d-resp")).extracting(ModelRequest::step).containsExactly(0, 1);
  }

  @Test
  void geminiStreamsCandidatesWithUsageOnTheLast() throws Exception {
    String tools = "\"tools\":[{\"functionDeclarations\":[{\"name\":\"run_shell_command\"}]}]";
    String prompt = "{\"role\":\"user\",\"parts\":[{\"text\":\"go d-gem\"}]}";
    HttpResponse<String> first = post("/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse", "{" + tools
        + ",\"contents\":[" + prompt + "]}");
    assertThat(first.body()).contains("\"functionCall\":{\"name\":\"run_shell_command\",\"args\":{\"command\":\"ls\"}}")
        .contains("\"finishReason\":\"STOP\"");
    HttpResponse<String> second = post("/v1beta/models/gemini-2.5-pro:generateContent", "{" + tools + ",\"contents\":["
        + prompt + ",{\"role\":\"model\",\"parts\":[{\"functionCall\":{}}]},{\"role\":\"user\",\"parts\":"
        + "[{\"functionResponse\":{}}]}]}");
    assertThat(second.body()).contains("{\"text\":\"all done\"}").contains("\"usageMetadata\":{\"promptTokenCount\":120,"
        + "\"candidatesTokenCount\":7,\"cachedContentTokenCount\":20,\"totalTokenCount\":127}");
    assertThat(server.requestsFor("d-gem")).extracting(ModelRequest::model, ModelRequest::step).containsExactly(
        org.assertj.core.groups.Tuple.tuple("gemini-2.5-pro", 0), org.assertj.core.groups.Tuple.tuple("gemini-2.5-pro", 1));
  }

  @Test
  void failuresUseEachProvidersErrorShape() throws Exception {
    String chatTools = "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"shell\"}}]";
    HttpResponse<String> chat = post("/v1/chat/completions", "{" + chatTools
        + ",\"messages\":[{\"role\":\"user\",\"content\":\"d-fail\"}]}");
    assertThat(chat.statusCode()).isEqualTo(429);
    assertThat(chat.headers().firstValue("retry-after")).hasValue("2");
    assertThat(chat.body()).contains("\"error\":{\"message\":\"slow down\",\"type\":\"rate_limit_exceeded\"");
    HttpResponse<String> gemini = post("/v1beta/models/g:generateContent", "{\"tools\":[{\"functionDeclarations\":"
        + "[{\"name\":\"x\"}]}],\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"d-fail\"}]}]}");
    assertThat(gemini.body()).contains("\"error\":{\"code\":429,\"message\":\"slow down\"");
  }
}
