package dev.agentdesk.app.serve.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.app.serve.Json;
import dev.agentdesk.app.serve.ServeConfig;
import dev.agentdesk.app.serve.TestServer;
import dev.agentdesk.testkit.OpenCodeHome;
import dev.agentdesk.testkit.model.ModelServer;
import dev.agentdesk.testkit.model.Reply;
import dev.agentdesk.testkit.model.Script;
import dev.agentdesk.transcripts.cost.PriceTable;
import dev.agentdesk.transcripts.records.TokenUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real OpenCode as an agent session under {@code serve --no-import}, against the scripted
 * model server: linked from its database, its cost read from that session at the bundled price,
 * its permission prompt answered through the API (Allow once runs the command), stopped.
 */
class RealOpenCodeServeTest {
  @Test
  void itsCostIsItsSessionsAndItsPermissionPromptIsAnsweredThroughTheApi(@TempDir Path dir) throws Exception {
    Path repo = AgentsApiTest.gitRepo(dir.resolve("repo"));
    try (ModelServer model = ModelServer.start()) {
      // a model the bundled price table knows, so agentdesk prices the session itself
      OpenCodeHome opencode = new OpenCodeHome(dir.resolve("home"), model.baseUrl(), true, "gpt-4o");
      model.add(Script.of("m-cost", Reply.text("Priced.").withUsage(new Reply.Usage(1000, 200, 0, 0))));
      model.add(Script.of("m-allow", Reply.tool("bash", "{\"command\":\"echo yes > allowed.txt\",\"description\":\"Say yes\"}"),
          Reply.text("Allowed.")));
      Map<String, String> env = new HashMap<>(System.getenv());
      env.remove("CODEX_HOME");
      env.putAll(opencode.env());
      ServeConfig.Notifications n = new ServeConfig.Notifications(List.of(), null, null, false);
      try (TestServer s = TestServer.withAgentsNoImport(dir, env, n)) {
        TestServer.Response started = s.post("/api/agents", Json.MAPPER.writeValueAsString(Map.of("agent", "opencode",
            "repo", repo.toString(), "worktree", "cost", "prompt", "price it m-cost")));
        assertThat(started.status()).as(started.body()).isEqualTo(201);
        String id = started.json().path("id").asText();

        JsonNode priced = AgentsApiTest.await(s, id, j -> !j.path("cost_usd").isNull()
            && j.path("status").path("phase").asText().equals("idle"), 30);
        double expected = PriceTable.bundled().find("gpt-4o").orElseThrow()
            .at(LocalDate.now(ZoneOffset.UTC).toString()).usd(new TokenUsage(1000, 200, 0, 0, 0));
        assertThat(priced.path("cost_usd").asDouble()).isEqualTo(Math.round(expected * 1e6) / 1e6);
        // OpenCode's own price beside it, at the rates of its configuration
        assertThat(priced.path("agent_cost_usd").asDouble()).isEqualTo(
            Math.round((1000 * OpenCodeHome.PRICE_INPUT + 200 * OpenCodeHome.PRICE_OUTPUT) / 1e6 * 1e6) / 1e6);
        assertThat(priced.path("tokens").path("input").asLong()).isEqualTo(1000);
        assertThat(priced.path("tokens").path("output").asLong()).isEqualTo(200);
        assertThat(priced.path("transcript").path("session_id").asText()).startsWith("ses_");

        assertThat(s.post("/api/agents/" + id + "/input", "{\"text\":\"now m-allow\"}").status()).isEqualTo(204);
        JsonNode asking = AgentsApiTest.await(s, id, j -> j.path("status").path("awaiting_input").asBoolean(), 30);
        assertThat(asking.path("status").path("question").asText())
            .isEqualTo("Permission required: Shell command: $ echo yes > allowed.txt");
        assertThat(asking.path("status").path("choice").path("options").findValuesAsText("label"))
            .containsExactly("Allow once", "Allow always", "Reject");
        assertThat(s.post("/api/agents/" + id + "/input", "{\"answer\":1}").status()).isEqualTo(204);
        JsonNode done = AgentsApiTest.await(s, id, j -> j.path("status").path("phase").asText().equals("idle")
            && Files.exists(Path.of(j.path("worktree").asText()).resolve("allowed.txt")), 30);
        assertThat(Path.of(done.path("worktree").asText()).resolve("allowed.txt")).hasContent("yes");

        JsonNode stopped = s.post("/api/agents/" + id + "/stop", "{}").json();
        assertThat(stopped.path("lifecycle").asText()).isEqualTo("ended");
      }
    }
  }
}
