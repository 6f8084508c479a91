package dev.agentdesk.app.serve.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.app.serve.Json;
import dev.agentdesk.app.serve.ServeConfig;
import dev.agentdesk.app.serve.TestServer;
import dev.agentdesk.notify.Webhook;
import dev.agentdesk.notify.WebhookFormat;
import dev.agentdesk.testkit.ClaudeCodeHome;
import dev.agentdesk.testkit.HttpReceiver;
import dev.agentdesk.testkit.model.ModelServer;
import dev.agentdesk.testkit.model.Reply;
import dev.agentdesk.testkit.model.Script;
import dev.agentdesk.testkit.model.Step;
import dev.agentdesk.transcripts.cost.PriceTable;
import dev.agentdesk.transcripts.records.TokenUsage;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real Claude Code as an agent session under {@code serve --no-import}, against the scripted
 * model server: its cost comes from its own transcript and equals the cost Claude records itself, a
 * hard 429 is the session's state and a whole-text notification, and stop goes through the agent's own exit.
 */
class RealClaudeServeTest {
  static final String HARD_429 =
      "API Error: Request rejected (429) · Number of request tokens has exceeded your per-minute rate limit";

  @Test
  void withoutTheImportTheCostIsTheTranscriptsAndAHardLimitIsStateAndAWholeNotification(@TempDir Path dir)
      throws Exception {
    Path repo = AgentsApiTest.gitRepo(dir.resolve("repo"));
    ClaudeCodeHome claude = new ClaudeCodeHome(dir.resolve("home"))
        .onboarded(List.of(dir.resolve("data/worktrees/repo/cost")));
    try (ModelServer model = ModelServer.start();
        HttpReceiver hooks = new HttpReceiver()) {
      // cache writes and reads too: each is priced at its own rate, by us and by Claude
      model.add(Script.of("m-cost", Reply.text("Priced.").withUsage(new Reply.Usage(1000, 200, 3000, 40000))));
      model.add(Script.ofSteps("m-s429", Step.of(new Reply.Failure(429, "rate_limit_error",
          "Number of request tokens has exceeded your per-minute rate limit", Map.of("x-should-retry", "false")))));
      Map<String, String> env = new HashMap<>(System.getenv());
      env.remove("XDG_DATA_HOME");
      env.remove("CODEX_HOME");
      env.putAll(claude.env(model.baseUrl()));
      ServeConfig.Notifications n = new ServeConfig.Notifications(
          List.of(Webhook.parse(hooks.url("/hook"), WebhookFormat.JSON)), null, null, false);
      try (TestServer s = TestServer.withAgentsNoImport(dir, env, n)) {
        TestServer.Response started = s.post("/api/agents", Json.MAPPER.writeValueAsString(Map.of("agent", "claude",
            "repo", repo.toString(), "worktree", "cost", "prompt", "price it m-cost")));
        assertThat(started.status()).as(started.body()).isEqualTo(201);
        String id = started.json().path("id").asText();

        JsonNode priced = AgentsApiTest.await(s, id, j -> !j.path("cost_usd").isNull()
            && j.path("status").path("phase").asText().equals("idle"), 30);
        double expected = PriceTable.bundled().find("claude-opus-5-5").orElseThrow()
            .at(LocalDate.now(ZoneOffset.UTC).toString()).usd(new TokenUsage(1000, 200, 40000, 3000, 0));
        assertThat(priced.path("cost_usd").asDouble()).isEqualTo(Math.round(expected * 1e6) / 1e6);
        assertThat(priced.path("tokens").path("input").asLong()).isEqualTo(1000);
        assertThat(priced.path("agent_cost_usd").isNull()).as("Claude records its cost when it exits").isTrue();

        assertThat(s.post("/api/agents/" + id + "/input", "{\"text\":\"again m-s429\"}").status()).isEqualTo(204);
        JsonNode limited = AgentsApiTest.await(s, id, j -> j.path("status").path("phase").asText()
            .equals("rate_limited"), 30);
        assertThat(limited.path("state").path("rate_limit_text").asText()).isEqualTo(HARD_429);
        assertThat(limited.path("state").path("last_api_error").path("text").asText()).isEqualTo(HARD_429);
        assertThat(awaitHook(hooks, "rate_limit").path("text").asText()).isEqualTo(HARD_429);

        JsonNode stopped = s.post("/api/agents/" + id + "/stop", "{}").json();
        assertThat(stopped.path("lifecycle").asText()).isEqualTo("ended");
        // Claude's own figure (its cost-state record, written on the way out) equals ours to the cent's millionth
        JsonNode own = AgentsApiTest.await(s, id, j -> !j.path("agent_cost_usd").isNull(), 30);
        assertThat(own.path("agent_cost_usd").asDouble()).isEqualTo(own.path("cost_usd").asDouble())
            .isEqualTo(Math.round(expected * 1e6) / 1e6);
      }
    }
  }

  static JsonNode awaitHook(HttpReceiver r, String event) throws Exception {
    Instant end = Instant.now().plusSeconds(30);
    while (Instant.now().isBefore(end)) {
      for (HttpReceiver.Request q : r.requests) {
        JsonNode b = Json.MAPPER.readTree(q.body());
        if (b.path("event").asText().equals(event)) {
          return b;
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError("no " + event + " webhook within 30 s; got " + r.requests);
  }
}
