package dev.agentdesk.app.serve.history;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.app.serve.TestServer;
import dev.agentdesk.testkit.SharedCorpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /api/history/limits} over a real SQLite file: a real Codex 0.104 rollout's windows from
 * the import, joined by what a supervised terminal (a real PTY) shows: Claude's usage-limit line and
 * its rate-limit line with the reset in epoch seconds.
 */
class UsageLimitsApiTest {
  static final String ROLLOUT = "2026/02/23/rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl";
  @TempDir static Path dir;
  static TestServer s;

  @BeforeAll
  static void start() throws Exception {
    Path target = dir.resolve("codex").resolve(ROLLOUT);
    Files.createDirectories(target.getParent());
    Files.copy(SharedCorpus.require("corpus/transcripts-peer/home/.codex/sessions/" + ROLLOUT), target);
    s = TestServer.withHistory(dir);
    HistoryApiTest.awaitImport(s);
  }

  @AfterAll
  static void stop() {
    if (s != null) {
      s.close();
    }
  }

  @Test
  void theRolloutsWindowsThenATerminalsJoinThem() throws Exception {
    JsonNode codex = s.get("/api/history/limits?provider=codex").json();
    assertThat(codex.get("limits")).hasSize(2);
    JsonNode primary = codex.get("limits").get(0);
    assertThat(primary.get("provider").asText()).isEqualTo("codex");
    assertThat(primary.get("window").asText()).isEqualTo("primary");
    assertThat(primary.get("used_percent").asDouble()).isEqualTo(25.0);
    assertThat(primary.get("window_minutes").asLong()).isEqualTo(300);
    assertThat(primary.get("resets_at").asText()).isEqualTo("2026-02-24T13:16:59Z");
    assertThat(primary.get("has_reset").asBoolean()).isTrue();
    assertThat(primary.get("minutes_to_reset").isNull()).isTrue();
    assertThat(primary.get("observed_at").asText()).isEqualTo("2026-02-24T12:09:44.233Z");
    assertThat(primary.get("origin").asText()).isEqualTo("transcript");
    assertThat(primary.get("session_id").asText()).isEqualTo("019c8a59-e9dd-71f0-9ae3-4079fe9726a9");
    assertThat(codex.get("limits").get(1).get("window").asText()).isEqualTo("secondary");
    assertThat(s.get("/api/history/limits?provider=claude").json().get("limits")).isEmpty();
    assertThat(s.get("/api/history/limits?provider=goose").status()).isEqualTo(400);

    Instant before = Instant.now();
    JsonNode t = s.post("/api/terminals", "{\"argv\": [\"bash\", \"--norc\", \"-c\", \"printf '"
        + "You\\\\047ve used 85%% of your weekly limit\\\\n"
        + "Claude AI usage limit reached|1893456000\\\\n'; exec sleep 60\"], \"agent\": \"claude\"}").json();
    String id = t.get("id").asText();
    try {
      JsonNode claude = awaitLimits("claude", 2);
      assertThat(claude.get("limits")).extracting(l -> l.get("window").asText()).containsExactly("rate limit", "weekly");
      JsonNode rate = claude.get("limits").get(0);
      assertThat(rate.get("resets_at").asText()).isEqualTo("2030-01-01T00:00:00Z");
      assertThat(rate.get("used_percent").isNull()).isTrue();
      assertThat(rate.get("origin").asText()).isEqualTo("terminal");
      assertThat(rate.get("has_reset").asBoolean()).isFalse();
      assertThat(rate.get("minutes_to_reset").asLong()).isPositive();
      JsonNode weekly = claude.get("limits").get(1);
      assertThat(weekly.get("used_percent").asDouble()).isEqualTo(85.0);
      assertThat(weekly.get("resets_at").isNull()).isTrue();
      assertThat(Instant.parse(weekly.get("observed_at").asText())).isBetween(before.minusSeconds(1), Instant.now());
      // the other provider's windows stay as they were
      assertThat(s.get("/api/history/limits").json().get("limits")).hasSize(4);
    } finally {
      s.delete("/api/terminals/" + id);
    }
  }

  /** The usage endpoint's mode on the rollout (Codex records no cost of its own): display is $0, calculate the calculation. */
  @Test
  void theUsageEndpointTakesTheMode() {
    JsonNode calc = s.get("/api/history/usage?by=model&mode=calculate").json();
    assertThat(calc.get("mode").asText()).isEqualTo("calculate");
    double calculated = calc.get("total").get("calculated_cost_usd").asDouble();
    assertThat(calculated).isPositive();
    assertThat(calc.get("total").get("cost_usd").asDouble()).isEqualTo(calculated);
    assertThat(calc.get("total").get("recorded_cost_usd").isNull()).isTrue();
    JsonNode auto = s.get("/api/history/usage?by=model").json();
    assertThat(auto.get("mode").asText()).isEqualTo("auto");
    assertThat(auto.get("total").get("cost_usd").asDouble()).isEqualTo(calculated);
    JsonNode display = s.get("/api/history/usage?by=day&mode=display").json();
    assertThat(display.get("total").get("cost_usd").asDouble()).isZero();
    assertThat(display.get("total").get("calculated_cost_usd").asDouble()).isEqualTo(calculated);
    var bad = s.get("/api/history/usage?mode=guess");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.json().get("message").asText()).contains("auto, calculate or display");
  }

  private static JsonNode awaitLimits(String provider, int count) throws InterruptedException {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
    JsonNode last = null;
    while (Instant.now().isBefore(deadline)) {
      last = s.get("/api/history/limits?provider=" + provider).json();
      if (last.get("limits").size() >= count) {
        return last;
      }
      Thread.sleep(50);
    }
    throw new AssertionError("the terminal's limits did not arrive: " + last);
  }
}
