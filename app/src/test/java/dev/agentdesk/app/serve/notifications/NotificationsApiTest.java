package dev.agentdesk.app.serve.notifications;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.app.serve.Json;
import dev.agentdesk.app.serve.ServeConfig;
import dev.agentdesk.app.serve.TestServer;
import dev.agentdesk.app.serve.agents.AgentsApiTest;
import dev.agentdesk.notify.Webhook;
import dev.agentdesk.notify.WebhookFormat;
import dev.agentdesk.testkit.HttpReceiver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Notifications and auto-resume through a real server: the Claude stand-in in the server's own
 * terminals and agent sessions, a real loopback webhook receiver, the REST switches, the health
 * counters, typed errors.
 */
class NotificationsApiTest {
  /**
   * How far ahead the stand-in's usage limit resets. The server must see the limit and plan before
   * it expires: 4 s was once too short in a loaded CI run (no plan at all, the limit gone unseen).
   */
  static final String RESET_SECONDS = "8";

  static final Path CLAUDE = AgentsApiTest.STANDINS.resolve("claude");

  static ServeConfig.Notifications hooks(HttpReceiver r, Path settings, boolean all) {
    return new ServeConfig.Notifications(List.of(Webhook.parse(r.url("/hook"), WebhookFormat.JSON)), null, settings, all);
  }

  /** A plain terminal running the Claude stand-in; {@code extra} adds to its environment. */
  static String claudeTerminal(TestServer s, Path dir, Map<String, String> extra) throws IOException {
    Map<String, String> env = new java.util.HashMap<>(extra);
    env.put("HOME", Files.createDirectories(dir.resolve("home")).toString());
    Path work = Files.createDirectories(dir.resolve("work"));
    TestServer.Response r = s.post("/api/terminals", Json.MAPPER.writeValueAsString(Map.of(
        "argv", List.of(CLAUDE.toString(), "Add a retry"), "agent", "claude", "cwd", work.toString(), "env", env)));
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json().get("id").asText();
  }

  static JsonNode awaitJson(TestServer s, String path, Predicate<JsonNode> cond, int seconds) throws InterruptedException {
    Instant end = Instant.now().plusSeconds(seconds);
    JsonNode last = null;
    while (Instant.now().isBefore(end)) {
      TestServer.Response r = s.get(path);
      if (r.status() == 200) {
        last = r.json();
        if (cond.test(last)) {
          return last;
        }
      }
      Thread.sleep(100);
    }
    throw new AssertionError(path + " did not get there within " + seconds + " s; last: " + last);
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

  @Test
  void aQuestionReachesTheWebhookAndTheCountersOnce(@TempDir Path dir) throws Exception {
    try (HttpReceiver r = new HttpReceiver();
        TestServer s = TestServer.withAgents(dir, AgentsApiTest.env(dir), hooks(r, null, false))) {
      String id = claudeTerminal(s, dir, Map.of());
      JsonNode hook = awaitHook(r, "awaiting_input");
      assertThat(hook.path("event").asText()).isEqualTo("awaiting_input");
      assertThat(hook.path("session").asText()).isEqualTo(id);
      assertThat(hook.path("agent").asText()).isEqualTo("claude");
      assertThat(hook.path("title").asText()).isEqualTo("claude Add a retry (" + id + ") needs you");
      assertThat(hook.path("text").asText()).isEqualTo("Which database should I use?");
      assertThat(hook.path("url").asText()).isEqualTo(s.base + "/#/terminals/" + id);
      // The menu stays on screen (a latched state): one notification, however often it is redrawn.
      Thread.sleep(1500);
      assertThat(r.requests.stream().filter(q -> q.body().contains("awaiting_input"))).hasSize(1);
      JsonNode health = s.get("/api/health").json();
      assertThat(health.path("features").path("notifications").asBoolean()).isTrue();
      assertThat(health.path("notifications").path("delivered").asLong()).isGreaterThanOrEqualTo(2); // browser + webhook
      assertThat(health.path("notifications").path("dropped").asLong()).isZero();
      JsonNode overview = s.get("/api/notifications").json();
      assertThat(overview.path("channels").path("webhooks").get(0).path("url").asText()).isEqualTo(r.url("/hook"));
      assertThat(overview.path("recent").toString()).contains("\"awaiting_input\"");
    }
  }

  @Test
  void aRefusingWebhookIsCountedInHealth(@TempDir Path dir) throws Exception {
    try (HttpReceiver r = new HttpReceiver();
        TestServer s = TestServer.withAgents(dir, AgentsApiTest.env(dir), hooks(r, null, false))) {
      r.status = () -> 410;
      claudeTerminal(s, dir, Map.of());
      JsonNode n = awaitJson(s, "/api/health", h -> h.path("notifications").path("dropped").asLong() >= 1, 20)
          .path("notifications");
      assertThat(n.path("failed_attempts").asLong()).as("a 410 is not retried").isEqualTo(n.path("dropped").asLong());
      assertThat(n.path("last_failure").asText()).isEqualTo("webhook " + r.url("/hook") + ": HTTP 410 refused with 410");
    }
  }

  @Test
  void autoResumeSwitchedOnThroughTheApiResumesOnce(@TempDir Path dir) throws Exception {
    Path settings = dir.resolve("config/agentdesk/notifications.json");
    Path log = dir.resolve("input.log");
    try (HttpReceiver r = new HttpReceiver();
        TestServer s = TestServer.withAgents(dir, AgentsApiTest.env(dir), hooks(r, settings, false))) {
      assertThat(s.put("/api/notifications/settings", "{\"resume_margin_s\": 1}").status()).isEqualTo(200);
      assertThat(Files.readString(settings)).contains("\"resume_margin_s\" : 1");
      String id = claudeTerminal(s, dir, Map.of("STANDIN_SCENARIO", "usage-limit", "STANDIN_RESET_SECONDS", RESET_SECONDS,
          "STANDIN_INPUT_LOG", log.toString()));
      assertThat(s.get("/api/auto-resume/" + id).json().path("enabled").asBoolean()).as("off by default").isFalse();
      // The limit was seen (it is notified); the terminal JSON shows limits with a retry delay only.
      awaitHook(r, "rate_limit");
      JsonNode on = Json.MAPPER.readTree(s.put("/api/auto-resume/" + id, "{\"enabled\": true}").body());
      assertThat(on.path("override").asBoolean()).isTrue();
      assertThat(on.path("plan").path("state").asText()).isEqualTo("scheduled");
      Instant resumeAt = Instant.parse(on.path("plan").path("resume_at").asText());
      assertThat(Instant.parse(on.path("plan").path("reset_at").asText()).plusSeconds(1)).isEqualTo(resumeAt);
      JsonNode done = awaitJson(s, "/api/auto-resume/" + id, a -> a.path("plan").path("state").asText().equals("resumed"), 20);
      assertThat(done.path("plan").path("reason").asText()).isEqualTo("typed 'continue' and Enter");
      awaitJson(s, "/api/terminals/" + id + "/snapshot", j -> String.join("\n",
          Json.MAPPER.convertValue(j.path("lines"), String[].class)).contains("Done: continue"), 20);
      Thread.sleep(1000);
      assertThat(Files.readAllLines(log)).containsExactly("continue");
      // The resume is an event of the session and goes to the channels (the webhook here).
      JsonNode resumed = awaitJson(s, "/api/notifications", o -> {
        for (JsonNode n : o.path("recent")) {
          if (n.path("event").asText().equals("auto_resumed")) {
            return true;
          }
        }
        return false;
      }, 10);
      assertThat(resumed.toString()).contains("resumed after its limit reset");
      org.assertj.core.api.Assertions.assertThat(r.requests).anySatisfy(q -> assertThat(q.body()).contains("\"auto_resumed\""));
    }
  }

  @Test
  void inputThroughTheServerCancelsAndServeAutoResumeIsTheDefault(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("input.log");
    try (HttpReceiver r = new HttpReceiver();
        TestServer s = TestServer.withAgents(dir, AgentsApiTest.env(dir), hooks(r, null, true))) {
      String id = claudeTerminal(s, dir, Map.of("STANDIN_SCENARIO", "usage-limit", "STANDIN_RESET_SECONDS", RESET_SECONDS,
          "STANDIN_INPUT_LOG", log.toString()));
      JsonNode plan = awaitJson(s, "/api/auto-resume/" + id, a -> a.path("plan").path("state").asText().equals("scheduled"), 20);
      assertThat(plan.path("all").asBoolean()).isTrue();
      assertThat(plan.path("override").isNull()).isTrue();
      // A key typed in the dashboard (no Enter) is input: the resume is off for this limit.
      assertThat(s.post("/api/terminals/" + id + "/input", "{\"text\": \"w\"}").status()).isEqualTo(204);
      JsonNode cancelled = awaitJson(s, "/api/auto-resume/" + id, a -> a.path("plan").path("state").asText().equals("cancelled"), 10);
      assertThat(cancelled.path("plan").path("reason").asText()).isEqualTo("you typed into the session");
      Instant resumeAt = Instant.parse(plan.path("plan").path("resume_at").asText());
      while (Instant.now().isBefore(resumeAt.plusSeconds(2))) {
        Thread.sleep(100);
      }
      assertThat(log).doesNotExist();
      assertThat(s.delete("/api/auto-resume/" + id + "/plan").status()).as("nothing left to cancel").isEqualTo(409);
    }
  }

  @Test
  void anAgentStartedWithAutoResumeResumesByItself(@TempDir Path dir) throws Exception {
    Path repo = AgentsApiTest.gitRepo(dir.resolve("repo"));
    Path log = dir.resolve("input.log");
    Map<String, String> env = new java.util.HashMap<>(AgentsApiTest.env(dir));
    env.put("STANDIN_SCENARIO", "usage-limit");
    env.put("STANDIN_RESET_SECONDS", RESET_SECONDS);
    env.put("STANDIN_INPUT_LOG", log.toString());
    try (HttpReceiver r = new HttpReceiver();
        TestServer s = TestServer.withAgents(dir, env, hooks(r, null, false))) {
      s.put("/api/notifications/settings", "{\"resume_margin_s\": 1}");
      TestServer.Response started = s.post("/api/agents", Json.MAPPER.writeValueAsString(Map.of("agent", "claude",
          "repo", repo.toString(), "prompt", "Add a retry", "auto_resume", true)));
      assertThat(started.status()).as(started.body()).isEqualTo(201);
      String id = started.json().path("id").asText();
      JsonNode plan = awaitJson(s, "/api/auto-resume/" + id, a -> !a.path("plan").isNull(), 30);
      assertThat(plan.path("override").asBoolean()).isTrue();
      assertThat(plan.path("plan").path("state").asText()).isEqualTo("scheduled");
      awaitJson(s, "/api/auto-resume/" + id, a -> a.path("plan").path("state").asText().equals("resumed"), 30);
      awaitJson(s, "/api/agents/" + id, a -> a.path("status").path("phase").asText().matches("idle|awaiting_input")
          && Files.exists(log), 30);
      Thread.sleep(1000);
      assertThat(Files.readAllLines(log)).containsExactly("continue");
      JsonNode hook = null;
      for (HttpReceiver.Request q : r.requests) {
        JsonNode b = Json.MAPPER.readTree(q.body());
        if (b.path("event").asText().equals("rate_limit")) {
          hook = b;
        }
      }
      assertThat(hook).as("the limit went to the webhook").isNotNull();
      assertThat(hook.path("session").asText()).isEqualTo(id);
      assertThat(hook.path("url").asText()).endsWith("/#/agents/" + id);
      assertThat(hook.path("text").asText()).startsWith("Claude AI usage limit reached|");
    }
  }

  @Test
  void badInputIsTypedErrors(@TempDir Path dir) throws Exception {
    try (HttpReceiver r = new HttpReceiver();
        TestServer s = TestServer.withAgents(dir, AgentsApiTest.env(dir), hooks(r, null, false))) {
      TestServer.Response bad = s.put("/api/notifications/settings", "{\"events\": {\"awaiting_input\": [\"pager\"]}}");
      assertThat(bad.status()).isEqualTo(400);
      assertThat(bad.json().path("message").asText()).contains("unknown channel 'pager'");
      TestServer.Response typo = s.put("/api/notifications/settings", "{\"sond\": true}");
      assertThat(typo.status()).isEqualTo(400);
      assertThat(typo.json().path("message").asText()).contains("unknown setting 'sond'");
      assertThat(s.get("/api/notifications").json().path("settings").path("sound").asBoolean()).isFalse();
      TestServer.Response notJson = s.put("/api/notifications/settings", "{\"sound\": ");
      assertThat(notJson.status()).isEqualTo(400);
      assertThat(notJson.json().path("code").asText()).isEqualTo("invalid_json");
      TestServer.Response unknown = s.put("/api/auto-resume/nope", "{\"enabled\": true}");
      assertThat(unknown.status()).isEqualTo(404);
      assertThat(unknown.json().path("message").asText()).contains("no running terminal or agent session nope");
    }
  }
}
