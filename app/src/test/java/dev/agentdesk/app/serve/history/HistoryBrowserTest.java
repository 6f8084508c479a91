package dev.agentdesk.app.serve.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.app.serve.Browser;
import dev.agentdesk.app.serve.ServeConfig;
import dev.agentdesk.app.serve.TestServer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;

/** The history pages in headless Chromium: import a corpus, search, open a detail; the empty page. */
@ExtendWith(Browser.Extension.class)
class HistoryBrowserTest {

  @Test
  void importSearchAndOpenASessionsDetail(Browser b, @TempDir Path dir) throws Exception {
    HistoryFixtures.claudeCorpus(dir.resolve("claude"));
    // a real Codex 0.104 rollout: its usage windows go beside the blocks
    Path rollout = dir.resolve("codex").resolve(UsageLimitsApiTest.ROLLOUT);
    java.nio.file.Files.createDirectories(rollout.getParent());
    java.nio.file.Files.copy(dev.agentdesk.testkit.SharedCorpus.require("corpus/transcripts-peer/home/.codex/sessions/"
        + UsageLimitsApiTest.ROLLOUT), rollout);
    try (TestServer s = TestServer.withHistory(dir)) {
      HistoryApiTest.awaitImport(s);
      b.open(s.page("#/history"));
      b.await(By.cssSelector("#sessions tbody tr"));
      assertThat(b.driver.findElements(By.cssSelector("#sessions tbody tr")).size()).isGreaterThanOrEqualTo(2);
      b.screenshot("history-list");

      b.driver.findElement(By.id("history-search")).sendKeys("Delegate", Keys.ENTER);
      b.await(By.cssSelector("#hits .hit mark"));
      assertThat(b.driver.findElement(By.cssSelector("#hits .hit mark")).getText()).containsIgnoringCase("delegate");
      b.screenshot("history-search");

      b.driver.findElement(By.cssSelector("#hits .hit-link")).click();
      b.await(By.cssSelector("#entries .entry"));
      assertThat(b.driver.findElement(By.cssSelector(".page-head h1")).getText()).isNotBlank();
      assertThat(b.driver.findElement(By.id("entries")).getText()).contains("Delegate a repo search to a subagent");
      assertThat(b.driver.findElements(By.cssSelector("#entries details.tool"))).isNotEmpty();
      assertThat(b.await(By.id("session-cost")).getText()).matches("\\$\\d.*");
      b.screenshot("session-detail");

      // Recent work (the corpus is older than the default 30 days): two sessions of today and yesterday.
      java.time.Instant now = java.time.Instant.now();
      java.nio.file.Path live = java.nio.file.Files.createDirectories(dir.resolve("claude").resolve("-tmp-recent"));
      for (int d = 0; d < 2; d++) {
        String session = "recent-" + d;
        String at = now.minus(java.time.Duration.ofDays(d)).toString();
        java.nio.file.Files.writeString(live.resolve(session + ".jsonl"),
            HistoryFixtures.userLine(session, session + "-u", null, "recent work " + d, at)
            + HistoryFixtures.assistantLine(session, session + "-a", session + "-u", d == 0 ? "claude-opus-5" : "claude-sonnet-5",
                "done " + d, at, 1200 + 500 * d, 300 + 200 * d)
            // today's session ended cleanly: Claude Code's own figure of its cost
            + (d == 0 ? "{\"type\":\"cost-state\",\"sessionId\":\"" + session + "\",\"totalCostUSD\":0.5,"
                + "\"modelUsage\":{\"claude-opus-5\":{\"inputTokens\":1200,\"outputTokens\":300,\"costUSD\":0.5}}}\n"
                : ""));
      }
      HistoryApiTest.awaitTrue(() -> s.get("/api/history/usage?by=day&days=2").json().get("rows").size() == 2, 20);
      b.open(s.page("#/usage"));
      b.await(By.cssSelector("#usage-day-chart rect"));
      b.await(By.id("usage-model-chart"));
      b.await(By.cssSelector("#usage-cost-chart rect.cost-bar"));
      assertThat(b.await(By.id("usage-total-cost")).getText()).startsWith("$");
      assertThat(b.await(By.id("usage-project-table")).getText()).contains("$");
      // the response of a moment ago holds the active block: a gauge with its time left and burn rate
      b.await(By.cssSelector("#usage-block-gauge rect.gauge-fill"));
      assertThat(b.await(By.id("usage-block-left")).getText()).matches("[0-4]h\\d{2}m left");
      assertThat(b.await(By.id("usage-blocks")).getText()).contains("(active)").contains("claude-opus-5");
      // beside the blocks: the rollout's two windows, how full, how long, and that both have reset since
      String limits = b.await(By.id("usage-limits")).getText();
      assertThat(limits).contains("codex · primary", "25%", "5h window", "codex · secondary", "20%", "7d window",
          "has reset", "by its transcript");
      assertThat(b.driver.findElements(By.cssSelector("#usage-limits rect.limit-fill"))).hasSize(2);
      // --mode auto: the agent's $0.50 is in the total, the calculation and the difference beside it
      assertThat(b.await(By.id("usage-recorded")).getText()).startsWith(
          "Recorded by the agents themselves (Claude Code, OpenCode) for part of it: $0.5000, where agentdesk calculates $")
          .contains("(difference +$0.");
      b.screenshot("usage");
      // by week: ISO weeks in the browser's time zone, the total the sum of the rows
      new org.openqa.selenium.support.ui.Select(b.await(By.id("usage-period"))).selectByValue("week");
      b.awaitText(By.id("usage-period-table"), "-W", 10);
      assertThat(b.driver.findElement(By.id("usage-period-table")).getText()).containsPattern("\\d{4}-W\\d{2}")
          .contains("Total");
      b.screenshot("usage-weeks");
    }
  }

  @Test
  void emptyHistorySaysWhereItLooksAndHowToImport(Browser b, @TempDir Path dir) {
    ServeConfig cfg = new ServeConfig("127.0.0.1", 0, TestServer.newToken(),
        new ServeConfig.Database.SqliteFile(dir.resolve("history.db")), dir.resolve("home/.claude/projects"),
        dir.resolve("home/.codex/sessions"), true, dir.resolve("data"));
    try (TestServer s = TestServer.start(cfg, dir)) {
      b.open(s.page("#/history"));
      b.await(By.id("history-empty"));
      b.awaitText(By.id("history-empty"), "No sessions yet", 10);
      String text = b.driver.findElement(By.id("history-empty")).getText();
      assertThat(text).contains(dir.resolve("home/.claude/projects").toString(), dir.resolve("home/.codex/sessions").toString(),
          "not found on this machine", "agentdesk history import", dir.resolve("history.db").toString());
      b.screenshot("history-empty");
    }
  }
}
