package dev.agentdesk.app.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;

/** The dashboard shell in headless Chromium: pages, live indicator, the token prompt. */
@ExtendWith(Browser.Extension.class)
class DashboardBrowserTest {

  @Test
  void shellLoadsGoesLiveAndNamesEveryPage(Browser b) {
    try (TestServer s = TestServer.start()) {
      b.open(s.base + "/");
      b.await(By.cssSelector(".tabs a.active"));
      b.awaitText(By.cssSelector("#live-status .label"), "live", 10);
      assertThat(b.driver.findElements(By.cssSelector(".tabs a"))).extracting(e -> e.getText())
          .containsExactly("Terminals", "History", "Usage", "Sandboxes");
      b.screenshot("dashboard-shell");
    }
  }

  @Test
  void nonLoopbackServerAsksForTheTokenThenWorks(Browser b) {
    String token = "browser-token-0123456789";
    try (TestServer s = TestServer.start("0.0.0.0", Optional.of(token), false)) {
      b.open(s.base + "/#/history");
      b.await(By.id("token-input"));
      assertThat(b.driver.findElement(By.cssSelector(".notice h2")).getText()).isEqualTo("This server needs a token");
      b.screenshot("token-prompt");
      b.driver.findElement(By.id("token-input")).sendKeys(token);
      b.driver.findElement(By.cssSelector(".token-form button")).click();
      b.awaitText(By.cssSelector("#live-status .label"), "live", 10);
      b.awaitGone(By.id("token-input"), 5);
      // A link with ?token= works as well and the token leaves the address bar.
      b.driver.manage().deleteAllCookies();
      ((org.openqa.selenium.JavascriptExecutor) b.driver).executeScript("sessionStorage.clear()");
      b.open(s.base + "/?token=" + token + "#/terminals");
      b.awaitText(By.cssSelector("#live-status .label"), "live", 10);
      assertThat(b.driver.getCurrentUrl()).doesNotContain(token);
    }
  }
}
