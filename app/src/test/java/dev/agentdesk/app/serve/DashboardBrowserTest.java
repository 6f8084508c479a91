package dev.agentdesk.app.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.JavascriptExecutor;

/** The dashboard shell in headless Chromium: pages, live indicator, signing in with the token. */
@ExtendWith(Browser.Extension.class)
class DashboardBrowserTest {

  @Test
  void shellLoadsGoesLiveAndNamesEveryPage(Browser b) {
    try (TestServer s = TestServer.start()) {
      b.open(s.page(""));
      b.await(By.cssSelector(".tabs a.active"));
      b.awaitText(By.cssSelector("#live-status .label"), "live", 10);
      assertThat(b.driver.findElements(By.cssSelector(".tabs a"))).extracting(e -> e.getText())
          .containsExactly("Agents", "Terminals", "History", "Usage", "Sandboxes", "Recordings");
      b.screenshot("dashboard-shell");
    }
  }

  @Test
  void thePrintedLinkSignsInWithAStrictHttpOnlyCookieAndNoLaterUrlCarriesTheToken(Browser b) throws Exception {
    try (TestServer s = TestServer.start()) {
      String token = s.token.orElseThrow();
      var term = s.post("/api/terminals", "{\"argv\": [\"bash\", \"-c\", \"echo cookie-socket-works; sleep 60\"]}");
      String id = term.json().get("id").asText();
      b.driver.manage().deleteAllCookies();
      b.requestedUrls(); // what earlier tests loaded is not this test's

      b.open(s.page("#/terminals"));
      b.awaitText(By.cssSelector("#live-status .label"), "live", 10); // /ws/events opened with the cookie
      assertThat(b.driver.getCurrentUrl()).isEqualTo(s.base + "/#/terminals");

      Cookie cookie = b.driver.manage().getCookieNamed("agentdesk-" + s.server.port());
      assertThat(cookie).isNotNull();
      assertThat(cookie.isHttpOnly()).isTrue();
      assertThat(cookie.getSameSite()).isEqualTo("Strict");
      assertThat(cookie.getPath()).isEqualTo("/");
      assertThat(cookie.getValue()).isNotEqualTo(token);
      assertThat((String) ((JavascriptExecutor) b.driver).executeScript("return document.cookie"))
          .as("scripts cannot read the cookie").doesNotContain("agentdesk-");
      assertThat((String) ((JavascriptExecutor) b.driver).executeScript(
          "return JSON.stringify(Object.assign({}, sessionStorage, localStorage))")).doesNotContain(token);

      // Pages that use fetch, images, download links and a terminal's WebSocket.
      b.open(s.base + "/#/terminals/" + id);
      b.awaitTerminalText("cookie-socket-works", 15); // what the cookie-authenticated socket delivered
      b.open(s.base + "/#/history");
      b.await(By.id("history-empty"));
      b.open(s.base + "/#/usage");
      b.await(By.cssSelector(".notice, #usage-day-chart"));

      List<String> urls = b.requestedUrls();
      assertThat(urls.stream().filter(u -> u.contains(token) || u.contains("token=")))
          .as("only the first load carries the token").containsExactly(s.page(""));
      assertThat(urls).hasSizeGreaterThan(10).contains(s.base + "/", s.base + "/js/app.js", s.base + "/api/health");
      assertThat(urls).contains("ws://127.0.0.1:" + s.server.port() + "/ws/events",
          "ws://127.0.0.1:" + s.server.port() + "/ws/terminals/" + id);
      assertThat(b.historyUrls()).as("the tab's history").isNotEmpty().noneMatch(u -> u.contains(token));
      b.screenshot("signed-in-terminal");
      s.delete("/api/terminals/" + id);
    }
  }

  @Test
  void withoutTheTokenTheSignInPageNamesTheTokenFileAndTakesTheToken(Browser b) {
    Path file = Path.of("/home/someone/.local/share/agentdesk/token");
    String token = TokenFile.generate();
    try (TestServer s = TestServer.start("127.0.0.1", new ServeConfig.Access.Token(token, Optional.of(file)), false)) {
      b.driver.manage().deleteAllCookies();
      b.open(s.base + "/#/history");
      assertThat(b.await(By.tagName("h1")).getText()).isEqualTo("This agentdesk server needs its token");
      assertThat(b.driver.findElement(By.id("token-file")).getText()).isEqualTo(file.toString());
      b.screenshot("sign-in-page");

      b.driver.findElement(By.id("token")).sendKeys("a-wrong-token-of-some-length");
      b.driver.findElement(By.cssSelector("form button")).click();
      b.awaitText(By.id("why"), "That token is not this server's token.", 10);
      assertThat(b.driver.getCurrentUrl()).contains("token=").as("a wrong token is not signed in");
      assertThat(b.driver.manage().getCookies()).isEmpty();

      b.driver.findElement(By.id("token")).sendKeys(token);
      b.driver.findElement(By.cssSelector("form button")).click();
      b.awaitText(By.cssSelector("#live-status .label"), "live", 10);
      assertThat(b.driver.getCurrentUrl()).isEqualTo(s.base + "/");
      assertThat(b.historyUrls()).noneMatch(u -> u.contains(token));

      // A sign-in the server no longer accepts (here: the cookie is gone) says so on the next call.
      b.driver.manage().deleteAllCookies();
      b.open(s.base + "/#/usage");
      b.awaitText(By.cssSelector(".notice h2"), "Signed out of this server", 10);
      b.screenshot("signed-out");
      b.driver.findElement(By.id("sign-in-again")).click();
      assertThat(b.await(By.tagName("h1")).getText()).isEqualTo("This agentdesk server needs its token");
    }
  }
}
