package dev.agentdesk.app.serve.terminals;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.app.serve.Browser;
import dev.agentdesk.app.serve.TestServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/** Terminals in headless Chromium: a stand-in agent asks, the badge shows, a button answers. */
@ExtendWith(Browser.Extension.class)
class TerminalsBrowserTest {

  @Test
  void awaitingBadgeAppearsAChoiceButtonAnswersAndTheBadgeClears(Browser b) {
    try (TestServer s = TestServer.start()) {
      b.open(s.page("#/terminals"));
      b.await(By.id("new-terminal"));
      b.awaitText(By.id("terminal-grid"), "No terminals yet", 10);
      b.screenshot("terminals-empty");

      b.driver.findElement(By.id("new-command")).sendKeys("bash " + StandIns.path("choice-agent.sh"));
      new Select(b.driver.findElement(By.id("new-agent"))).selectByValue("claude");
      b.driver.findElement(By.cssSelector("#new-terminal button[type=submit]")).click();

      // The terminal view opens; the agent draws its menu and the awaiting badge appears.
      b.await(By.id("screen"));
      b.await(By.cssSelector("#term-badges .badge.awaiting"), 20);
      try {
        b.awaitText(By.id("screen"), "Do you want to make this edit to parser.rs?", 10);
      } catch (RuntimeException e) {
        throw new AssertionError("console: " + b.console(), e);
      }
      b.screenshot("terminal-awaiting");

      // Back to the grid: the card shows the same badge and the choices as buttons.
      b.open(s.page("#/terminals"));
      WebElement card = b.await(By.cssSelector(".term-card"));
      b.await(By.cssSelector(".term-card .badge.awaiting"));
      assertThat(card.findElements(By.cssSelector(".choices button.choice"))).extracting(WebElement::getText)
          .contains("1. Yes", "3. No, and tell Claude what to do differently");
      assertThat(card.findElement(By.cssSelector(".choices button.destructive")).getText()).startsWith("3.");
      b.screenshot("terminals-grid-awaiting");

      card.findElement(By.cssSelector(".choices button[data-index='1']")).click();
      b.awaitGone(By.cssSelector(".term-card .badge.awaiting"), 15);
      b.await(By.cssSelector(".term-card .links a"), 10);
      assertThat(b.driver.findElement(By.cssSelector(".term-card .links a")).getAttribute("href"))
          .isEqualTo("https://github.com/example/widgets/pull/42");
      b.await(By.cssSelector(".term-card .badge.usage"), 10);
      assertThat(b.driver.findElement(By.cssSelector(".term-card .badge.usage")).getText()).contains("85%");
      b.await(By.cssSelector(".term-card .badge.rate-limited"), 10);
      assertThat(b.driver.findElement(By.cssSelector(".term-card .badge.rate-limited")).getText())
          .matches("rate-limited · 0:[0-3]\\d");
      b.screenshot("terminals-grid-answered");

      // The terminal view takes typing: the stand-in echoes each line.
      b.driver.findElement(By.cssSelector(".term-card a.title")).click();
      WebElement screen = b.await(By.id("screen"));
      b.awaitText(By.id("screen"), "Answered 1", 10);
      screen.click();
      screen.sendKeys("hello from the browser\n");
      b.awaitText(By.id("screen"), "You said: hello from the browser", 10);
      new WebDriverWait(b.driver, Duration.ofSeconds(5)).until(d -> !d.findElements(By.cssSelector("#term-links a")).isEmpty());
      b.screenshot("terminal-view");
    }
  }
}
