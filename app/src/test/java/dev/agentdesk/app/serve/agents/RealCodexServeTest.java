package dev.agentdesk.app.serve.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.app.serve.Json;
import dev.agentdesk.app.serve.ServeConfig;
import dev.agentdesk.app.serve.TestServer;
import dev.agentdesk.notify.Webhook;
import dev.agentdesk.notify.WebhookFormat;
import dev.agentdesk.testkit.CodexHome;
import dev.agentdesk.testkit.HttpReceiver;
import dev.agentdesk.testkit.model.ModelServer;
import dev.agentdesk.testkit.model.Reply;
import dev.agentdesk.testkit.model.Script;
import dev.agentdesk.testkit.model.Step;
import dev.agentdesk.transcripts.cost.PriceTable;
import dev.agentdesk.transcripts.records.TokenUsage;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real Codex CLI as an agent session under {@code serve --no-import}, against the scripted
 * model server's Responses API: its tokens and cost come from its own rollout while it runs, the
 * transcript is linked, a 429 is the session's state and a whole-text notification, and stop ends it.
 */
class RealCodexServeTest {
  static final String LIMIT = "exceeded retry limit, last status: 429 Too Many Requests";

  @Test
  void theCostIsTheRolloutsAndA429IsStateAndAWholeNotification(@TempDir Path dir) throws Exception {
    Path repo = AgentsApiTest.gitRepo(dir.resolve("repo"));
    try (ModelServer model = ModelServer.start();
        HttpReceiver hooks = new HttpReceiver()) {
      CodexHome codex = new CodexHome(dir.resolve("home"))
          .configured(model.baseUrl(), "gpt-5-codex", List.of(dir.resolve("data/worktrees/repo/cost")));
      model.add(Script.of("c-cost", Reply.text("Priced.").withUsage(new Reply.Usage(1000, 200, 0, 400))));
      model.add(Script.ofSteps("c-s429", Step.of(new Reply.Failure(429, "rate_limit_exceeded",
          "Rate limit reached for requests", Map.of()))));
      Map<String, String> env = new HashMap<>(System.getenv());
      env.remove("XDG_DATA_HOME");
      env.putAll(codex.env());
      ServeConfig.Notifications n = new ServeConfig.Notifications(
          List.of(Webhook.parse(hooks.url("/hook"), WebhookFormat.JSON)), null, null, false);
      try (TestServer s = TestServer.withAgentsNoImport(dir, env, n)) {
        TestServer.Response started = s.post("/api/agents", Json.MAPPER.writeValueAsString(Map.of("agent", "codex",
            "repo", repo.toString(), "worktree", "cost", "prompt", "price it c-cost")));
        assertThat(started.status()).as(started.body()).isEqualTo(201);
        String id = started.json().path("id").asText();

        JsonNode priced = AgentsApiTest.await(s, id, j -> !j.path("cost_usd").isNull()
            && j.path("status").path("phase").asText().equals("idle"), 30);
        assertThat(priced.path("lifecycle").asText()).isEqualTo("running");
        assertThat(priced.path("transcript").path("path").asText()).contains("/.codex/sessions/")
            .endsWith(priced.path("transcript").path("session_id").asText() + ".jsonl");
        // the Responses API counts the cached 400 inside its 1400 input tokens; the rollout keeps them apart
        TokenUsage used = new TokenUsage(1000, 200, 400, 0, 0);
        assertThat(priced.path("tokens").path("input").asLong()).isEqualTo(1000);
        assertThat(priced.path("tokens").path("output").asLong()).isEqualTo(200);
        assertThat(priced.path("tokens").path("cache_read").asLong()).isEqualTo(400);
        double expected = PriceTable.bundled().find("gpt-5-codex").orElseThrow()
            .at(LocalDate.now(ZoneOffset.UTC).toString()).usd(used);
        assertThat(priced.path("cost_usd").asDouble()).isEqualTo(Math.round(expected * 1e6) / 1e6);

        assertThat(s.post("/api/agents/" + id + "/input", "{\"text\":\"again c-s429\"}").status()).isEqualTo(204);
        JsonNode limited = AgentsApiTest.await(s, id, j -> j.path("status").path("phase").asText()
            .equals("rate_limited"), 30);
        assertThat(limited.path("state").path("rate_limit_text").asText()).isEqualTo(LIMIT);
        assertThat(limited.path("state").path("last_api_error").path("text").asText()).isEqualTo(LIMIT);
        assertThat(RealClaudeServeTest.awaitHook(hooks, "rate_limit").path("text").asText()).isEqualTo(LIMIT);

        JsonNode stopped = s.post("/api/agents/" + id + "/stop", "{}").json();
        assertThat(stopped.path("lifecycle").asText()).isEqualTo("ended");
      }
    }
  }
}
