package dev.agentdesk.app.serve.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.app.serve.TestServer;
import dev.agentdesk.app.serve.agents.AgentsApiTest;
import dev.agentdesk.app.serve.history.HistoryFixtures;
import dev.agentdesk.mcp.AgentdeskMcp;
import dev.agentdesk.testkit.SharedCorpus;
import dev.agentdesk.testkit.XDisplay;
import dev.agentdesk.testkit.XvfbConfig;
import dev.agentdesk.testkit.XvfbExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The MCP server driven by a real MCP client, the official TypeScript SDK's, over both transports:
 * Streamable HTTP at serve's /mcp and stdio of {@code agentdesk mcp} (a child JVM talking to the
 * same serve). Every tool is called against real parts — an imported corpus, a real PTY, an agent
 * stand-in in a git worktree, an ACI runtime on Xvfb with its accessibility bus — and each
 * structured result is checked by Ajv against the output schema the tool declared. Errors (unknown
 * session, bad arguments, control without permission, no server) must be tool errors, not crashes.
 */
@ExtendWith(XvfbExtension.class)
@XvfbConfig(width = 1024, height = 640)
class McpEndToEndTest {
  static Path dir;
  static TestServer server;
  static AccessibleRuntime runtime;
  static String sandboxId;
  static String terminalId;
  static String agentId;
  static Path repo;
  static Path tokenFile;

  @BeforeAll
  static void start(XDisplay x) throws Exception {
    dir = Files.createTempDirectory("agentdesk-mcp-test");
    Map<String, String> env = AgentsApiTest.env(dir);
    env.put("STANDIN_NO_QUESTION", "1");
    HistoryFixtures.claudeCorpus(Path.of(env.get("HOME")).resolve(".claude/projects"));
    repo = AgentsApiTest.gitRepo(dir.resolve("repo"));
    server = TestServer.withAgents(dir, env, true);
    tokenFile = dir.resolve("token");
    Files.writeString(tokenFile, server.token.orElseThrow());
    Files.setPosixFilePermissions(tokenFile, PosixFilePermissions.fromString("rw-------"));
    awaitTrue(() -> server.get("/api/history/sessions").json().path("total").asInt() >= 1, "the corpus imported");

    runtime = AccessibleRuntime.start(x.name(), dir);
    TestServer.Response sb = server.post("/api/sandboxes", "{\"url\": \"" + runtime.url + "\", \"token\": \""
        + AccessibleRuntime.TOKEN + "\", \"name\": \"xvfb\"}");
    assertThat(sb.status()).as(sb.body()).isEqualTo(201);
    sandboxId = sb.json().get("id").asText();

    TestServer.Response t = server.post("/api/terminals", "{\"argv\": [\"bash\", \"--norc\", \"--noprofile\"], \"cwd\": \""
        + dir + "\"}");
    assertThat(t.status()).as(t.body()).isEqualTo(201);
    terminalId = t.json().get("id").asText();

    TestServer.Response a = server.post("/api/agents", "{\"agent\": \"claude\", \"repo\": \"" + repo
        + "\", \"worktree\": \"first\", \"prompt\": \"hello\"}");
    assertThat(a.status()).as(a.body()).isEqualTo(201);
    agentId = a.json().get("id").asText();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    if (runtime != null) {
      runtime.close();
    }
  }

  // ---- the plan every transport runs ----

  /** Every tool with real arguments; labels name the checks below. */
  static McpClient everyTool(McpClient c, String marker) {
    return c.listTools()
        .call("history_search", "history_search", Map.of("query", "files", "limit", 5))
        .call("history_session", "history_session", Map.of("id", HistoryFixtures.SMALL_SESSION, "limit", 3))
        .call("history_session_page2", "history_session", Map.of("id", HistoryFixtures.SMALL_SESSION, "offset", 3))
        .call("history_usage", "history_usage", Map.of("by", "model"))
        .call("history_usage_days", "history_usage", Map.of("by", "day", "days", 3650))
        .call("history_usage_weeks", "history_usage", Map.of("by", "week", "timezone", "Europe/Berlin",
            "breakdown", true, "order", "desc", "since", "20000101", "provider", "claude"))
        .call("history_usage_blocks", "history_usage", Map.of("by", "block", "timezone", "UTC"))
        .call("history_usage_today", "history_usage", Map.of("by", "day", "days", 1))
        .call("history_limits", "history_limits", Map.of("provider", "codex"))
        .call("history_sessions", "history_sessions", Map.of("provider", "claude", "limit", 10))
        .call("terminal_list", "terminal_list", Map.of())
        .call("terminal_send", "terminal_send", Map.of("id", terminalId, "text", "echo " + marker + "-$((6*7))\r"))
        .callUntil("terminal_read", "terminal_read", Map.of("id", terminalId, "lines", 20), marker + "-42")
        .call("terminal_send_key", "terminal_send", Map.of("id", terminalId, "key", "enter"))
        .call("terminal_start", "terminal_start", Map.of("argv", List.of("bash", "--norc"), "cwd", dir.toString()))
        .call("agent_list", "agent_list", Map.of())
        .call("agent_diff", "agent_diff", Map.of("id", agentId))
        .call("agent_start", "agent_start", Map.of("agent", "claude", "repo", repo.toString(), "prompt", "second",
            "worktree", "w-" + marker))
        .call("sandbox_list", "sandbox_list", Map.of())
        .call("sandbox_screenshot", "sandbox_screenshot", Map.of("id", sandboxId, "max_long_edge", 512))
        .call("sandbox_act", "sandbox_act", Map.of("id", sandboxId, "observe", true,
            "action", Map.of("type", "move", "x", 10, "y", 20)))
        .call("sandbox_act_type", "sandbox_act", Map.of("id", sandboxId, "action", Map.of("type", "type_text",
            "text", marker)))
        .call("sandbox_observe", "sandbox_observe", Map.of("id", sandboxId))
        .call("sandbox_exec", "sandbox_exec", Map.of("id", sandboxId, "argv", List.of("echo", marker)))
        .listResourceTemplates()
        .readResource("session_markdown", "agentdesk://history/sessions/" + HistoryFixtures.SMALL_SESSION)
        .readResource("terminal_screen", "agentdesk://terminals/" + terminalId + "/screen")
        .readResource("unknown_session_resource", "agentdesk://history/sessions/no-such-session")
        // The error cases: each a tool error saying what is wrong.
        .call("err_unknown_session", "history_session", Map.of("id", "no-such-session"))
        .call("err_missing_query", "history_search", Map.of())
        .call("err_limit", "history_search", Map.of("query", "files", "limit", 0))
        .call("err_type", "history_search", Map.of("query", "files", "limit", "ten"))
        .call("err_unknown_arg", "history_sessions", Map.of("limt", 5))
        .call("err_grouping", "history_usage", Map.of("by", "weekly"))
        .call("err_unknown_terminal", "terminal_read", Map.of("id", "nope"))
        .call("err_send_both", "terminal_send", Map.of("id", terminalId, "text", "x", "key", "enter"))
        .call("err_verb", "sandbox_act", Map.of("id", sandboxId, "action", Map.of("type", "teleport")))
        // ref reaches the sandbox's own checks (an unknown argument would be refused by the tool first)
        .call("err_ref_verb", "sandbox_act", Map.of("id", sandboxId, "action", Map.of("type", "click", "ref", "nope")))
        .call("err_unknown_sandbox", "sandbox_screenshot", Map.of("id", "nope"));
  }

  /** What every transport must show for {@link #everyTool}. */
  static void checkEveryTool(McpClient.Report r, String marker) {
    assertThat(r.json().path("connectError").isMissingNode()).as(r.json().toString()).isTrue();
    assertThat(r.json().path("serverInfo").path("name").asText()).isEqualTo("agentdesk");
    JsonNode tools = r.result("tools").path("tools");
    List<String> names = new ArrayList<>();
    tools.forEach(t -> {
      names.add(t.path("name").asText());
      assertThat(t.path("inputSchema").path("type").asText()).as(t.path("name").asText()).isEqualTo("object");
      assertThat(t.path("outputSchema").path("type").asText()).as(t.path("name").asText()).isEqualTo("object");
    });
    assertThat(names).containsExactly("history_search", "history_session", "history_usage", "history_limits",
        "history_sessions",
        "terminal_list", "terminal_read", "terminal_send", "terminal_start", "agent_list", "agent_start", "agent_diff",
        "sandbox_list", "sandbox_screenshot", "sandbox_act", "sandbox_observe", "sandbox_exec");
    assertThat(names).isEqualTo(AgentdeskMcp.toolNames());

    // Every successful call conforms to its declared output schema (Ajv, strict).
    for (String label : List.of("history_search", "history_session", "history_session_page2", "history_usage",
        "history_usage_days", "history_usage_weeks", "history_usage_blocks", "history_limits", "history_sessions",
        "terminal_list", "terminal_send", "terminal_read", "terminal_send_key",
        "terminal_start", "agent_list", "agent_diff", "agent_start", "sandbox_list", "sandbox_screenshot", "sandbox_act",
        "sandbox_act_type", "sandbox_observe", "sandbox_exec")) {
      JsonNode step = r.step(label);
      assertThat(step.path("ok").asBoolean()).as(label + ": " + step).isTrue();
      assertThat(step.path("result").path("isError").asBoolean()).as(label + ": " + step).isFalse();
      assertThat(step.path("schemaErrors").isNull()).as(label + " against its output schema: " + step).isTrue();
      assertThat(step.path("result").path("structuredContent").isObject()).as(label).isTrue();
    }

    JsonNode hits = r.result("history_search").path("structuredContent").path("hits");
    assertThat(hits.size()).isPositive();
    assertThat(hits.get(0).path("session_id").asText()).isNotBlank();
    assertThat(hits.get(0).path("snippet").asText()).containsIgnoringCase("[files]");

    JsonNode page1 = r.result("history_session").path("structuredContent");
    assertThat(page1.path("session").path("id").asText()).isEqualTo(HistoryFixtures.SMALL_SESSION);
    assertThat(page1.path("entries").size()).isEqualTo(3);
    int total = page1.path("total_entries").asInt();
    assertThat(total).isGreaterThan(3);
    assertThat(r.result("history_session_page2").path("structuredContent").path("entries").size()).isEqualTo(total - 3);

    JsonNode usage = r.result("history_usage").path("structuredContent");
    // weeks and blocks hold the responses the models do; a week's models sum to the week
    JsonNode blocks = r.result("history_usage_blocks").path("structuredContent");
    assertThat(blocks.path("total").path("output_tokens").asLong())
        .isEqualTo(usage.path("total").path("output_tokens").asLong());
    assertThat(blocks.path("blocks").size()).isEqualTo(blocks.path("rows").size()).isPositive();
    for (JsonNode week : r.result("history_usage_weeks").path("structuredContent").path("rows")) {
      assertThat(week.path("key").asText()).matches("\\d{4}-W\\d{2}");
      long sum = 0;
      for (JsonNode m : week.path("models")) {
        sum += m.path("output_tokens").asLong();
      }
      assertThat(sum).isEqualTo(week.path("output_tokens").asLong());
    }
    assertThat(usage.path("rows").size()).isPositive();
    assertThat(usage.path("total").path("output_tokens").asLong()).isPositive();
    // A total is the sum of the rows the filter kept (the fixtures are older than today).
    for (String label : List.of("history_usage_days", "history_usage_today")) {
      JsonNode kept = r.result(label).path("structuredContent");
      long responses = 0;
      for (JsonNode row : kept.path("rows")) {
        responses += row.path("responses").asLong();
      }
      assertThat(kept.path("total").path("responses").asLong()).as(label).isEqualTo(responses);
    }
    assertThat(r.result("history_usage_today").path("structuredContent").path("total").path("responses").asLong())
        .isLessThan(r.result("history_usage_days").path("structuredContent").path("total").path("responses").asLong());
    assertThat(r.result("history_sessions").path("structuredContent").path("sessions").findValuesAsText("id"))
        .contains(HistoryFixtures.SMALL_SESSION);

    assertThat(r.result("terminal_list").path("structuredContent").path("terminals").findValuesAsText("id"))
        .contains(terminalId);
    JsonNode read = r.result("terminal_read").path("structuredContent");
    assertThat(read.path("screen").asText()).contains(marker + "-42");
    assertThat(read.path("events").isArray()).isTrue();
    assertThat(r.result("terminal_start").path("structuredContent").path("argv").get(0).asText()).isEqualTo("bash");

    assertThat(r.result("agent_list").path("structuredContent").path("agents").findValuesAsText("id")).contains(agentId);
    assertThat(r.result("agent_diff").path("structuredContent").path("base").asText()).isNotBlank();
    assertThat(r.result("agent_start").path("structuredContent").path("branch").asText())
        .isEqualTo("agentdesk/w-" + marker);

    assertThat(r.result("sandbox_list").path("structuredContent").path("sandboxes").findValuesAsText("id"))
        .contains(sandboxId);
    JsonNode shot = r.result("sandbox_screenshot");
    JsonNode image = shot.path("content").path(1);
    assertThat(image.path("type").asText()).isEqualTo("image");
    assertThat(image.path("mimeType").asText()).isEqualTo("image/png");
    byte[] png = Base64.getDecoder().decode(image.path("data").asText());
    assertThat(png).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
    assertThat(shot.path("structuredContent").path("bytes").asInt()).isEqualTo(png.length);
    assertThat(r.result("sandbox_act").path("structuredContent").path("observation").path("tree_text").asText())
        .contains("Sandbox");
    assertThat(r.result("sandbox_observe").path("structuredContent").path("tree_text").asText())
        .contains("Type here").contains("push_button").contains("\"OK\"");
    assertThat(r.result("sandbox_act_type").path("structuredContent").path("type").asText()).isEqualTo("type_text");
    JsonNode exec = r.result("sandbox_exec").path("structuredContent");
    assertThat(exec.path("exit_code").asInt()).isZero();
    assertThat(exec.path("stdout").asText()).isEqualTo(marker + "\n");

    JsonNode templates = r.result("templates").path("resourceTemplates");
    assertThat(templates.findValuesAsText("uriTemplate"))
        .containsExactlyInAnyOrder("agentdesk://history/sessions/{id}", "agentdesk://terminals/{id}/screen");
    JsonNode md = r.result("session_markdown").path("contents").path(0);
    assertThat(md.path("mimeType").asText()).isEqualTo("text/markdown");
    assertThat(md.path("text").asText()).contains("I'll list files.");
    assertThat(r.result("terminal_screen").path("contents").path(0).path("text").asText()).contains(marker + "-42");
    JsonNode missing = r.step("unknown_session_resource");
    assertThat(missing.path("ok").asBoolean()).isFalse();
    assertThat(missing.path("code").asInt()).as(missing.toString()).isEqualTo(-32002);

    Map<String, String> errors = new LinkedHashMap<>();
    errors.put("err_unknown_session", "not_found: no session no-such-session");
    errors.put("err_missing_query", "bad_arguments: history_search: query is required");
    errors.put("err_limit", "limit must be between 1 and 200, got 0");
    errors.put("err_type", "limit must be a whole number");
    errors.put("err_unknown_arg", "unknown argument 'limt'");
    errors.put("err_grouping", "by must be one of day, week, month, model, session, provider, project, block");
    errors.put("err_unknown_terminal", "not_found: no terminal nope");
    errors.put("err_send_both", "give exactly one of text or key");
    errors.put("err_verb", "type must be one of click");
    errors.put("err_ref_verb", "ref must be an element ref from observe, like e12; got 'nope'");
    errors.put("err_unknown_sandbox", "not_found: no sandbox nope");
    errors.forEach((label, text) -> {
      JsonNode step = r.step(label);
      assertThat(step.path("ok").asBoolean()).as(label + " is a result, not a protocol error: " + step).isTrue();
      assertThat(step.path("result").path("isError").asBoolean()).as(label).isTrue();
      assertThat(r.text(label)).as(label).contains(text);
    });
  }

  @Test
  void streamableHttpServesEveryTool() throws Exception {
    McpClient.Report r = everyTool(McpClient.http(server.base + "/mcp", server.token.orElseThrow()), "http").run();
    checkEveryTool(r, "http");
    assertThat(r.json().path("protocolVersion").asText()).isEqualTo("2025-11-25");
    assertThat(r.instructions()).isEqualTo(AgentdeskMcp.declarations());
  }

  @Test
  void stdioServesEveryToolThroughTheRunningServer() throws Exception {
    McpClient.Report r = everyTool(stdio("--allow-control", "--server", server.base + "/"), "stdio").run();
    checkEveryTool(r, "stdio");
    assertThat(r.instructions()).isEqualTo(AgentdeskMcp.declarations());
    assertThat(r.json().path("stderr").asText()).contains("mcp stdio call history_search by client 'agentdesk-test-client 1.0.0' -> ok");
  }

  @Test
  void theInstructionsAreTheSpecsIntentAndSuggestDeclarations() throws Exception {
    String spec = Files.readString(SharedCorpus.require("spec/output-parser.md"));
    int at = spec.indexOf("## Intent Declaration");
    String intent = spec.substring(at, spec.indexOf("\n\n", at));
    assertThat(AgentdeskMcp.declarations()).startsWith(intent + "\n");
    assertThat(AgentdeskMcp.declarations()).contains("suggest: [");
    assertThat(spec).contains("suggest: [ A | B | C ]").contains("2–4 per the protocol");
  }

  @Test
  void controlToolsAreRefusedWithoutPermissionAndEveryCallIsLogged() throws Exception {
    McpClient c = stdio("--server", server.base + "/").clientName("permission-check")
        .call("read", "terminal_list", Map.of())
        .call("terminal_send", "terminal_send", Map.of("id", terminalId, "text", "echo no\r"))
        .call("terminal_start", "terminal_start", Map.of("argv", List.of("bash")))
        .call("agent_start", "agent_start", Map.of("agent", "claude", "repo", repo.toString()))
        .call("sandbox_act", "sandbox_act", Map.of("id", sandboxId, "action", Map.of("type", "key", "key", "shift")))
        .call("sandbox_exec", "sandbox_exec", Map.of("id", sandboxId, "argv", List.of("true")));
    McpClient.Report r = c.run();
    assertThat(r.result("read").path("isError").asBoolean()).isFalse();
    for (String tool : AgentdeskMcp.controlToolNames()) {
      assertThat(r.result(tool).path("isError").asBoolean()).as(tool).isTrue();
      assertThat(r.text(tool)).as(tool).startsWith("not_allowed: " + tool)
          .contains("start 'agentdesk mcp' with --allow-control");
      assertThat(r.json().path("stderr").asText()).contains("call " + tool + " by client 'permission-check 1.0.0' -> not_allowed");
    }

    // The same on serve's endpoint when serve was started without --mcp-allow-control.
    try (TestServer readOnly = TestServer.start()) {
      McpClient.Report h = McpClient.http(readOnly.base + "/mcp", readOnly.token.orElseThrow())
          .call("terminal_start", "terminal_start", Map.of("argv", List.of("bash"))).run();
      assertThat(h.text("terminal_start")).startsWith("not_allowed: terminal_start")
          .contains("--mcp-allow-control");
      assertThat(readOnly.get("/api/terminals").json().size()).as("nothing was started").isZero();
    }
  }

  @Test
  void withoutARunningServerLiveToolsSayWhyAndHistoryWorks() throws Exception {
    McpClient.Report r = stdio("--server", "http://127.0.0.1:9/")
        .call("history", "history_search", Map.of("query", "files"))
        .call("terminals", "terminal_list", Map.of())
        .call("sandboxes", "sandbox_list", Map.of()).run();
    assertThat(r.instructions()).startsWith(AgentdeskMcp.declarations())
        .contains("Not available now: terminal_list").contains("http://127.0.0.1:9/");
    assertThat(r.result("history").path("isError").asBoolean()).isFalse();
    for (String label : List.of("terminals", "sandboxes")) {
      assertThat(r.result(label).path("isError").asBoolean()).as(label).isTrue();
      assertThat(r.text(label)).as(label).startsWith("unavailable: ")
          .contains("need a running 'agentdesk serve'").contains("the history_* tools work without it");
    }
  }

  @Test
  void theHttpEndpointNeedsTheServersToken() throws Exception {
    McpClient.Report none = McpClient.http(server.base + "/mcp", null).call("x", "terminal_list", Map.of()).run();
    assertThat(none.json().path("connectError").asText()).contains("unauthorized").contains("Authorization: Bearer");
    McpClient.Report wrong = McpClient.http(server.base + "/mcp", "wrong-token-wrong-token-wrong-token")
        .call("x", "terminal_list", Map.of()).run();
    assertThat(wrong.json().path("connectError").asText()).contains("unauthorized").contains("wrong token");
  }

  /** {@code agentdesk mcp ARGS} as the client starts it: a child JVM on the same database and token file. */
  static McpClient stdio(String... args) {
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", cp, "dev.agentdesk.app.Main", "mcp", "--db", dir.resolve("db").resolve("history.db").toString(),
        "--token-file", tokenFile.toString()));
    cmd.addAll(List.of(args));
    Map<String, String> env = new LinkedHashMap<>();
    env.put("PATH", System.getenv("PATH"));
    env.put("HOME", dir.resolve("home").toString());
    return McpClient.stdio(cmd, env);
  }

  static void awaitTrue(java.util.function.BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (System.nanoTime() < deadline) {
      if (condition.getAsBoolean()) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("timed out waiting for " + what);
  }
}
