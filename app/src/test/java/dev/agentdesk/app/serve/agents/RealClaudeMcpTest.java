package dev.agentdesk.app.serve.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.app.serve.Json;
import dev.agentdesk.app.serve.ServeConfig;
import dev.agentdesk.app.serve.TestServer;
import dev.agentdesk.testkit.ClaudeCodeHome;
import dev.agentdesk.testkit.model.ModelRequest;
import dev.agentdesk.testkit.model.ModelServer;
import dev.agentdesk.testkit.model.Reply;
import dev.agentdesk.testkit.model.Script;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real Claude Code calls agentdesk's own MCP tools: an agent session under {@code serve} whose
 * Claude has the server's Streamable HTTP endpoint ({@code /mcp}, the API's bearer token) among its
 * MCP servers. The scripted model waits for the server ({@code WaitForMcpServers}, as a model does
 * while Claude still connects it), then asks for {@code mcp__agentdesk__agent_list}; Claude offers the
 * tool, asks the user's permission (answered through the API), calls our endpoint, and the model
 * gets our answer, which lists this very session.
 */
class RealClaudeMcpTest {
  @Test
  void claudeCallsAgentdesksMcpToolAndTheModelGetsItsAnswer(@TempDir Path dir) throws Exception {
    Path repo = AgentsApiTest.gitRepo(dir.resolve("repo"));
    ClaudeCodeHome claude = new ClaudeCodeHome(dir.resolve("home"))
        .onboarded(List.of(dir.resolve("data/worktrees/repo/mcp")));
    try (ModelServer model = ModelServer.start()) {
      // Claude connects MCP servers in the background, so the prompt on its command line goes out before
      // our tools are in its list; it offers WaitForMcpServers for that, and a model calls it first.
      model.add(Script.of("m-mcp", Reply.tool("WaitForMcpServers", "{\"servers\":[\"agentdesk\"]}"),
          Reply.tool("mcp__agentdesk__agent_list", "{}"), Reply.text("Listed the agents.")));
      Map<String, String> env = new HashMap<>(System.getenv());
      env.remove("XDG_DATA_HOME");
      env.remove("CODEX_HOME");
      env.putAll(claude.env(model.baseUrl()));
      // 2.1.328 would defer MCP tools behind its tool search; offered directly, the model can call one
      env.put("ENABLE_TOOL_SEARCH", "false");
      ServeConfig.Notifications none = new ServeConfig.Notifications(List.of(), null, null, false);
      try (TestServer s = TestServer.withAgentsNoImport(dir, env, none)) {
        claude.withHttpMcpServer("agentdesk", s.base + "/mcp", s.token.orElseThrow());
        TestServer.Response started = s.post("/api/agents", Json.MAPPER.writeValueAsString(Map.of("agent", "claude",
            "repo", repo.toString(), "worktree", "mcp", "prompt", "list the agents m-mcp")));
        assertThat(started.status()).as(started.body()).isEqualTo(201);
        String id = started.json().path("id").asText();

        ModelRequest first = model.await("the prompt", r -> "m-mcp".equals(r.script()) && r.step() == 0,
            Duration.ofSeconds(30));
        assertThat(first.tools()).contains("WaitForMcpServers");
        ModelRequest waited = model.await("after the wait", r -> "m-mcp".equals(r.script()) && r.step() == 1,
            Duration.ofSeconds(30));
        assertThat(waited.body()).contains("tool_result");
        assertThat(waited.tools()).as("agentdesk's tools, offered by Claude under its MCP names")
            .contains("mcp__agentdesk__agent_list", "mcp__agentdesk__terminal_read", "mcp__agentdesk__history_search");

        JsonNode asking = AgentsApiTest.await(s, id, j -> j.path("status").path("choice").isObject(), 30);
        assertThat(asking.path("status").path("phase").asText()).isEqualTo("awaiting_input");
        assertThat(asking.path("status").path("choice").path("options").get(0).path("label").asText()).isEqualTo("Yes");
        assertThat(s.post("/api/agents/" + id + "/input", "{\"answer\":1}").status()).isEqualTo(204);

        ModelRequest answered = model.await("the tool result", r -> "m-mcp".equals(r.script()) && r.step() == 2,
            Duration.ofSeconds(30));
        assertThat(answered.body()).as("our agent_list answer, naming this session").contains("tool_result")
            .contains(id);
        JsonNode done = AgentsApiTest.await(s, id, j -> j.path("status").path("phase").asText().equals("idle")
            && s.get("/api/terminals/" + j.path("terminal_id").asText() + "/snapshot").body().contains("Listed the agents."), 30);
        assertThat(done.path("status").path("awaiting_input").asBoolean()).isFalse();
        assertThat(s.post("/api/agents/" + id + "/stop", "{}").json().path("lifecycle").asText()).isEqualTo("ended");
      }
    }
  }
}
