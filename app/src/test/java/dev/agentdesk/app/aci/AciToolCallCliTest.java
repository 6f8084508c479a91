package dev.agentdesk.app.aci;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdesk.aci.testkit.TestRuntime;
import dev.agentdesk.aci.wire.Action;
import dev.agentdesk.aci.wire.Target;
import dev.agentdesk.aci.wire.Verb;
import dev.agentdesk.app.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code agentdesk aci tool-call}: the CLI's plumbing (calls in, one result line each, exit status,
 * options on either side of the name) against the in-process runtime. What the calls do on a real
 * desktop is the computer-use module's Xvfb tests.
 */
class AciToolCallCliTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  private TestRuntime runtime;
  private Path tokenFile;

  @BeforeEach
  void start() throws Exception {
    runtime = new TestRuntime(TestRuntime.fullCapabilities());
    tokenFile = dir.resolve("token");
    Files.writeString(tokenFile, TestRuntime.TOKEN + "\n");
  }

  @AfterEach
  void stop() {
    runtime.close();
  }

  private CliRun toolCall(String calls, String... options) throws Exception {
    Path in = dir.resolve("calls-" + System.nanoTime() + ".jsonl");
    Files.writeString(in, calls);
    List<String> args = new java.util.ArrayList<>(List.of("aci", "tool-call", "--input", in.toString()));
    args.addAll(List.of(options));
    args.addAll(List.of("--url", runtime.uri().toString(), "--token-file", tokenFile.toString()));
    return CliRun.run(args.toArray(String[]::new));
  }

  @Test
  void anthropicCallsGetOneToolResultLineEach() throws Exception {
    CliRun r = toolCall("""
        {"type":"tool_use","id":"t1","name":"computer","input":{"action":"screenshot"}}
        {"type":"tool_use","id":"t2","name":"computer","input":{"action":"left_click","coordinate":[80,50]}}
        {"action":"key","text":"ctrl+Page_Down"}
        """, "--format", "anthropic", "--display", "160x100");
    assertThat(r.exit()).as(r.err()).isZero();
    List<String> lines = r.out().lines().toList();
    assertThat(lines).hasSize(3);
    JsonNode shot = JSON.readTree(lines.get(0));
    assertThat(shot.path("tool_use_id").asText()).isEqualTo("t1");
    assertThat(shot.path("content").get(0).path("source").path("data").asText()).isNotEmpty();
    assertThat(JSON.readTree(lines.get(2)).has("tool_use_id")).isFalse();
    // 160x100 declared on the 320x200 screen: model (80, 50) is screen (161, 101).
    assertThat(runtime.actions().stream().map(Action::keys)).contains("ctrl+pagedown");
    assertThat(runtime.actions().stream().filter(a -> a.verb() == Verb.CLICK).map(Action::target))
        .containsExactly(new Target.PointPx(161, 101));
  }

  @Test
  void openAiCallsGetComputerCallOutputs() throws Exception {
    CliRun r = toolCall("""
        {"type":"computer_call","call_id":"c1","action":{"type":"keypress","keys":["CTRL","L"]}}
        """, "--format", "openai", "--json");
    assertThat(r.exit()).as(r.err()).isZero();
    JsonNode out = JSON.readTree(r.out());
    assertThat(out.path("type").asText()).isEqualTo("computer_call_output");
    assertThat(out.path("call_id").asText()).isEqualTo("c1");
    assertThat(out.path("output").path("image_url").asText()).startsWith("data:image/png;base64,");
    assertThat(runtime.actions().stream().map(Action::keys)).contains("ctrl+l");
  }

  @Test
  void aFailedCallIsPrintedAndMakesTheExitStatusOne() throws Exception {
    CliRun r = toolCall("""
        {"type":"tool_use","id":"t1","name":"computer","input":{"action":"key","text":"Hyperspace"}}
        {"type":"tool_use","id":"t2","name":"computer","input":{"action":"type","text":"still runs"}}
        """, "--format", "anthropic");
    assertThat(r.exit()).isEqualTo(1);
    List<String> lines = r.out().lines().toList();
    assertThat(lines).hasSize(2);
    assertThat(JSON.readTree(lines.get(0)).path("is_error").asBoolean()).isTrue();
    assertThat(r.err()).contains("call 1 (t1): unknown key name \"Hyperspace\"");
    assertThat(runtime.actions().stream().map(Action::text)).contains("still runs");
    CliRun openai = toolCall("{\"call_id\":\"c9\",\"action\":{\"type\":\"click\",\"button\":\"back\",\"x\":1,\"y\":1}}",
        "--format", "openai");
    assertThat(openai.exit()).isEqualTo(1);
    assertThat(openai.out()).isEmpty();
    assertThat(openai.err()).contains("call 1 (c9): click with the back button cannot be done over ACI v0");
  }

  @Test
  void badInputIsAUserError() throws Exception {
    CliRun notJson = toolCall("{\"action\":\"screenshot\"}\n{oops", "--format", "anthropic");
    assertThat(notJson.exit()).isEqualTo(2);
    assertThat(notJson.out().lines()).hasSize(1);
    assertThat(notJson.err()).contains("tool call 2 is not JSON", "(1 call(s) before it were carried out)");
    assertThat(toolCall("", "--format", "anthropic").err()).contains("no tool call on");
    assertThat(toolCall("{}", "--format", "gemini").err()).contains("--format must be anthropic or openai, got gemini");
    assertThat(toolCall("{}", "--format", "anthropic", "--display", "wide").err())
        .contains("display size must be WxH such as 1024x768, got \"wide\"");
    assertThat(toolCall("{}", "--format", "anthropic", "--tool-version", "computer_20241022").exit()).isEqualTo(2);
  }
}
