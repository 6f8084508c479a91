package dev.agentdesk.app.serve.agents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.app.serve.Browser;
import dev.agentdesk.app.serve.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;

/**
 * The agent pages in real Chromium against a real server running the Claude stand-in in a real git
 * worktree: start from "New agent", see its terminal in xterm.js and its transcript tail live, answer
 * its menu with a button, read the diff, merge, discard.
 */
@ExtendWith(Browser.Extension.class)
class AgentsBrowserTest {

  @Test
  void startWatchAnswerReviewMergeAndDiscard(Browser b, @TempDir Path dir) throws Exception {
    Path repo = AgentsApiTest.gitRepo(dir.resolve("repo"));
    Map<String, String> env = AgentsApiTest.env(dir);
    try (TestServer s = TestServer.withAgents(dir, env)) {
      b.open(s.page("#/agents"));
      b.await(By.id("agents-empty"));
      b.driver.findElement(By.id("agent-repo")).sendKeys(repo.toString());
      b.driver.findElement(By.id("agent-worktree")).sendKeys("ui");
      b.driver.findElement(By.id("agent-prompt")).sendKeys("Add a retry");
      b.driver.findElement(By.id("start-agent")).click();

      // The session page: Claude's screen in xterm.js, the menu as buttons, the transcript beside it.
      b.await(By.id("agent-terminal"));
      b.awaitTerminalText("Welcome to Claude Code", 20);
      b.await(By.cssSelector("#agent-choices button"), 30);
      assertThat(b.driver.findElements(By.cssSelector("#agent-choices button"))).extracting(e -> e.getText())
          .containsExactly("1. SQLite", "2. PostgreSQL");
      b.awaitText(By.id("agent-transcript"), "Add a retry", 10);
      b.awaitText(By.id("diff-patch"), "+edited by claude: Add a retry", 10);
      assertThat(b.driver.findElement(By.id("diff-files")).getText()).contains("agent.txt", "+1");
      // The question links to the transcript's AskUserQuestion call.
      b.await(By.cssSelector("#agent-question a.jump"), 10);
      b.screenshot("agent-session");

      // Opening the page leaves the agent's PTY at the size it was started with (120×36), the
      // page no wider than the window, and the Tokens line with cache writes; "Fit to window"
      // resizes it on purpose.
      String terminal = s.get("/api/agents").json().get(0).path("terminal_id").asText();
      JsonNode pty = s.get("/api/terminals/" + terminal).json();
      assertThat(pty.path("cols").asInt()).as("cols after the page opened").isEqualTo(120);
      assertThat(pty.path("rows").asInt()).as("rows after the page opened").isEqualTo(36);
      Long pageWidth = (Long) ((org.openqa.selenium.JavascriptExecutor) b.driver).executeScript(
          "return document.documentElement.scrollWidth - window.innerWidth");
      assertThat(pageWidth).as("page wider than the window by").isLessThanOrEqualTo(0L);
      assertThat(b.driver.findElement(By.id("agent-tokens")).getText()).contains("cache read", "cache write");
      b.driver.findElement(By.id("agent-fit")).click();
      new org.openqa.selenium.support.ui.WebDriverWait(b.driver, java.time.Duration.ofSeconds(10))
          .until(d -> s.get("/api/terminals/" + terminal).json().path("cols").asInt() != 120);

      b.driver.findElement(By.cssSelector("#agent-choices button[data-option='2']")).click();
      b.awaitText(By.id("agent-transcript"), "with PostgreSQL", 15);
      b.awaitGone(By.id("agent-choices"), 15);

      // A line written to the transcript file shows on the page (an agent event says the transcript grew; the latency is
      // measured by ./bench agents, not here).
      JsonNode agent = s.get("/api/agents").json().get(0);
      Path file = Path.of(agent.path("transcript").path("path").asText());
      String session = agent.path("transcript").path("session_id").asText();
      String line = "{\"parentUuid\":null,\"isSidechain\":false,\"userType\":\"external\",\"cwd\":\"" + agent.path("worktree").asText()
          + "\",\"sessionId\":\"" + session + "\",\"version\":\"2.1.7\",\"type\":\"user\",\"uuid\":\"live-line-1\","
          + "\"timestamp\":\"2026-12-01T12:00:00.000Z\",\"message\":{\"role\":\"user\",\"content\":\"written behind the page\"}}\n";
      Files.writeString(file, line, StandardOpenOption.APPEND);
      b.awaitText(By.id("agent-transcript"), "written behind the page", 5);

      b.driver.findElement(By.id("agent-merge")).click();
      b.awaitText(By.id("agent-merge-note"), "Merged into main", 10);
      assertThat(Files.readString(repo.resolve("agent.txt"))).contains("edited by claude: Add a retry");

      // The list shows it; discard asks first.
      b.open(s.page("#/agents"));
      b.await(By.cssSelector("#agents tbody tr"));
      assertThat(b.driver.findElement(By.id("agents")).getText()).contains("claude · ui", "agentdesk/ui");
      b.click(By.cssSelector("#agents tbody tr a"));
      b.await(By.id("agent-discard"));
      ((JavascriptExecutor) b.driver).executeScript("window.confirm = () => true;");
      b.click(By.id("agent-discard"));
      b.await(By.id("agents-empty"), 15);
      assertThat(Path.of(agent.path("worktree").asText())).doesNotExist();
    }
  }
}
