package dev.agentdesk.app.serve.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.app.serve.Browser;
import dev.agentdesk.app.serve.TestServer;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;

/**
 * The README's picture: a real server runs the scripted Claude stand-in as an agent session in a
 * real git worktree, and headless Chromium opens its page (terminal, transcript, question, diff).
 * A second picture shows the History page over the repository's own transcript fixtures. Every build takes it (into
 * target/screenshots/readme-dashboard.png) and checks the page shows what the caption says;
 * {@code scripts/readme-screenshot} runs this test with {@code -Dagentdesk.readme.screenshot=FILE}
 * to write it over docs/images/dashboard.png.
 */
@ExtendWith(Browser.Extension.class)
class ReadmeScreenshotTest {
  private static final Path ROOT = Path.of(System.getProperty("agentdesk.repo.root", "..")).toAbsolutePath().normalize();
  private static final String SESSION = "5f0c1a2e-0000-4000-8000-000000000001";

  @Test
  void theDashboardShowingAnAgentSession(Browser b, @TempDir Path dir) throws Exception {
    Path repo = dev.agentdesk.app.serve.agents.AgentsApiTest.gitRepo(dir.resolve("api"));
    java.util.Map<String, String> env = dev.agentdesk.app.serve.agents.AgentsApiTest.env(dir);
    try (TestServer s = TestServer.withAgents(dir, env)) {
      String id = s.post("/api/agents", "{\"agent\":\"claude\",\"repo\":\"" + repo + "\",\"worktree\":\"retry\","
          + "\"prompt\":\"Add a retry with backoff to fetch()\"}").json().get("id").asText();
      b.open(s.page("#/agents/" + id));
      b.await(By.cssSelector("#agent-choices button"), 30);
      b.awaitText(By.id("agent-transcript"), "Add a retry", 10);
      b.awaitText(By.id("diff-patch"), "+edited by claude", 10);
      b.driver.manage().window().setSize(new org.openqa.selenium.Dimension(1400, 900));
      Thread.sleep(800); // the terminal refits to its box after the resize
      Path shot = b.screenshot("readme-dashboard");
      assertThat(ImageIO.read(shot.toFile()).getWidth()).isGreaterThanOrEqualTo(1200);
      String target = System.getProperty("agentdesk.readme.screenshot");
      if (target != null && !target.isBlank()) {
        Path out = ROOT.resolve(target);
        Files.createDirectories(out.getParent());
        Files.copy(shot, out, StandardCopyOption.REPLACE_EXISTING);
        System.out.println("readme screenshot written to " + out);
      }
    }
  }

  @Test
  void theHistoryShowingAnImportedSession(Browser b, @TempDir Path dir) throws Exception {
    Path fixtures = ROOT.resolve("transcripts/src/test/resources/fixtures");
    copyTree(fixtures.resolve("claude/projects"), dir.resolve("claude"));
    copyTree(fixtures.resolve("codex/sessions"), dir.resolve("codex"));
    try (TestServer s = TestServer.withHistory(dir)) {
      HistoryApiTest.awaitImport(s);
      b.open(s.page("#/history/sessions/" + SESSION));
      b.await(By.cssSelector("#entries .entry"));
      assertThat(b.driver.findElement(By.cssSelector(".page-head h1")).getText()).isEqualTo("Retry for fetch()");
      assertThat(b.driver.findElement(By.id("entries")).getText()).contains("backoff");
      assertThat(b.driver.findElements(By.cssSelector(".tabs a"))).extracting(e -> e.getText())
          .contains("Terminals", "History", "Usage", "Sandboxes");
      BufferedImage image = ImageIO.read(b.screenshot("readme-history").toFile());
      assertThat(image.getWidth()).isGreaterThanOrEqualTo(1200);
    }
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path f : (Iterable<Path>) walk::iterator) {
        Path target = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(target);
        } else {
          Files.copy(f, target, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }
}
