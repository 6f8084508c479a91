package dev.agentdesk.app.serve.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.app.serve.Json;
import dev.agentdesk.app.serve.ServeConfig;
import dev.agentdesk.app.serve.TestServer;
import dev.agentdesk.notify.Webhook;
import dev.agentdesk.notify.WebhookFormat;
import dev.agentdesk.testkit.Processes;
import dev.agentdesk.testkit.GeminiCliHome;
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
 * The real Gemini CLI as an agent session under {@code serve --no-import}, against the scripted
 * model server: its cost comes from its own chat file at the bundled price, its usage-limit dialog
 * is answered through the API, the hard 429 is the session's state and one whole-text
 * notification, and stop ends it.
 */
class RealGeminiServeTest {
  static final String HARD_429 = "[API Error: Quota exceeded for metric: "
      + "generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 0, model: gemini-2.5-flash]"
      + " Please wait and try again later. To increase your limits, request a quota increase through AI Studio, or"
      + " switch to another /auth method";

  @Test
  void afterTheTrustRestartTheCostAndTheTokensCountBothChatFilesExactly(@TempDir Path dir) throws Exception {
    Path repo = AgentsApiTest.gitRepo(dir.resolve("repo"));
    // no folder trusted: the trust dialog comes up, and answering it restarts Gemini into a new chat file
    GeminiCliHome gemini = new GeminiCliHome(dir.resolve("home"));
    Reply.Usage usage = new Reply.Usage(1300, 70, 0, 2500);
    try (ModelServer model = ModelServer.start()) {
      model.add(Script.of("g-restart", Reply.text("Priced twice.").withUsage(usage)));
      Map<String, String> env = new HashMap<>(System.getenv());
      env.remove("XDG_DATA_HOME");
      env.remove("GEMINI_CLI_HOME");
      env.putAll(gemini.env(model.baseUrl()));
      try (TestServer s = TestServer.withAgentsNoImport(dir, env,
          new ServeConfig.Notifications(List.of(), null, null, false))) {
        TestServer.Response started = s.post("/api/agents", Json.MAPPER.writeValueAsString(Map.of("agent", "gemini",
            "repo", repo.toString(), "worktree", "restart", "prompt", "price it g-restart")));
        assertThat(started.status()).as(started.body()).isEqualTo(201);
        String id = started.json().path("id").asText();

        // 0.61 sends the prompt behind the dialog: the first process's answer is in the first chat file
        JsonNode asked = AgentsApiTest.await(s, id, j -> j.path("status").path("choice").path("title").asText()
            .equals("Do you trust the files in this folder?") && j.path("tokens").path("output").asLong() == 70, 30);
        String firstId = asked.path("transcript").path("session_id").asText();
        assertThat(s.post("/api/agents/" + id + "/input", "{\"answer\":1}").status()).isEqualTo(204);

        // the restarted process asks again into a new file; each chat file holds one of the two responses
        TokenUsage one = new TokenUsage(1300, 70, 2500, 0, 0);
        double each = PriceTable.bundled().find(GeminiCliHome.MODEL).orElseThrow()
            .at(LocalDate.now(ZoneOffset.UTC).toString()).usd(one);
        double both = Math.round((each + each) * 1e6) / 1e6;
        JsonNode done = AgentsApiTest.await(s, id, j -> !j.path("transcript").path("session_id").asText().equals(firstId)
            && j.path("tokens").path("output").asLong() == 140 && j.path("cost_usd").asDouble() == both
            && j.path("status").path("phase").asText().equals("idle"), 30);
        assertThat(model.requestsFor("g-restart")).hasSize(2);
        assertThat(done.path("tokens").path("input").asLong()).isEqualTo(2600);
        assertThat(done.path("tokens").path("cache_read").asLong()).isEqualTo(5000);
        assertThat(done.path("transcript").path("earlier")).hasSize(1);
        assertThat(done.path("transcript").path("earlier").path(0).path("session_id").asText()).isEqualTo(firstId);
        // the price of both responses, not only of the linked file's one
        assertThat(both).isGreaterThan(Math.round(each * 1e6) / 1e6);

        assertThat(s.post("/api/agents/" + id + "/stop", "{}").json().path("lifecycle").asText()).isEqualTo("ended");
        // neither the launcher nor the process it relaunched is left
        assertThat(Processes.workingIn(Path.of(done.path("worktree").asText()))).isEmpty();
      }
    }
  }

  @Test
  void withoutTheImportTheCostIsTheChatFilesAndAHardLimitIsStateAndOneWholeNotification(@TempDir Path dir)
      throws Exception {
    Path repo = AgentsApiTest.gitRepo(dir.resolve("repo"));
    GeminiCliHome gemini = new GeminiCliHome(dir.resolve("home")).trusted(List.of(dir.resolve("data/worktrees/repo/cost")));
    try (ModelServer model = ModelServer.start();
        HttpReceiver hooks = new HttpReceiver()) {
      model.add(Script.of("g-cost", Reply.text("Priced.").withUsage(new Reply.Usage(1000, 200, 0, 4000))));
      model.add(Script.ofSteps("g-s429", Step.of(new Reply.Failure(429, "RESOURCE_EXHAUSTED",
          "Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 0,"
              + " model: gemini-2.5-flash", Map.of()))));
      Map<String, String> env = new HashMap<>(System.getenv());
      env.remove("XDG_DATA_HOME");
      env.remove("GEMINI_CLI_HOME");
      env.putAll(gemini.env(model.baseUrl()));
      ServeConfig.Notifications n = new ServeConfig.Notifications(
          List.of(Webhook.parse(hooks.url("/hook"), WebhookFormat.JSON)), null, null, false);
      try (TestServer s = TestServer.withAgentsNoImport(dir, env, n)) {
        TestServer.Response started = s.post("/api/agents", Json.MAPPER.writeValueAsString(Map.of("agent", "gemini",
            "repo", repo.toString(), "worktree", "cost", "prompt", "price it g-cost")));
        assertThat(started.status()).as(started.body()).isEqualTo(201);
        String id = started.json().path("id").asText();

        JsonNode priced = AgentsApiTest.await(s, id, j -> !j.path("cost_usd").isNull()
            && j.path("status").path("phase").asText().equals("idle"), 30);
        double expected = PriceTable.bundled().find(GeminiCliHome.MODEL).orElseThrow()
            .at(LocalDate.now(ZoneOffset.UTC).toString()).usd(new TokenUsage(1000, 200, 4000, 0, 0));
        assertThat(priced.path("cost_usd").asDouble()).isEqualTo(Math.round(expected * 1e6) / 1e6);
        assertThat(priced.path("tokens").path("input").asLong()).isEqualTo(1000);
        assertThat(priced.path("tokens").path("cache_read").asLong()).isEqualTo(4000);

        assertThat(s.post("/api/agents/" + id + "/input", "{\"text\":\"again g-s429\"}").status()).isEqualTo(204);
        JsonNode asked = AgentsApiTest.await(s, id, j -> j.path("status").path("phase").asText().equals("awaiting_input"),
            30);
        assertThat(asked.path("status").path("choice").path("title").asText())
            .isEqualTo("Usage limit reached for gemini-2.5-flash.");
        assertThat(s.post("/api/agents/" + id + "/input", "{\"answer\":2}").status()).isEqualTo(204);
        JsonNode limited = AgentsApiTest.await(s, id, j -> j.path("status").path("phase").asText()
            .equals("rate_limited"), 30);
        assertThat(limited.path("state").path("rate_limit_text").asText()).isEqualTo(HARD_429);
        assertThat(RealClaudeServeTest.awaitHook(hooks, "rate_limit").path("text").asText()).isEqualTo(HARD_429);
        assertThat(hooks.requests.stream().filter(q -> q.body().contains("\"rate_limit\""))).hasSize(1);

        JsonNode stopped = s.post("/api/agents/" + id + "/stop", "{}").json();
        assertThat(stopped.path("lifecycle").asText()).isEqualTo("ended");
      }
    }
  }
}
