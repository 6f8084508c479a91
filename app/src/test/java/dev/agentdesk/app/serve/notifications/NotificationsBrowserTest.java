package dev.agentdesk.app.serve.notifications;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.app.serve.Browser;
import dev.agentdesk.app.serve.TestServer;
import dev.agentdesk.app.serve.agents.AgentsApiTest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Browser notifications in real Chromium with the notification permission granted (CDP
 * Browser.grantPermissions). Headless Chromium draws no notification to click, so the page's
 * {@code window.Notification} is wrapped before the dashboard loads: the wrapper still constructs
 * the real Notification (the page goes through the real API and permission) and keeps each one
 * in {@code window.__notifications}, where the test reads its title and dispatches the click
 * event on it, as the browser does when the user clicks it.
 */
@ExtendWith(Browser.Extension.class)
class NotificationsBrowserTest {
  static final String HOOK = """
      (() => {
        const Real = window.Notification;
        window.__notifications = [];
        class Observed extends Real {
          constructor(title, options) { super(title, options); window.__notifications.push(this); }
        }
        Object.defineProperty(Observed, 'permission', { get: () => Real.permission });
        Observed.requestPermission = (...a) => Real.requestPermission(...a);
        window.Notification = Observed;
      })();""";

  @Test
  void aQuestionIsABrowserNotificationThatOpensTheSession(Browser b, @TempDir Path dir) throws Exception {
    try (TestServer s = TestServer.withAgents(dir, AgentsApiTest.env(dir))) {
      ChromeDriver chrome = (ChromeDriver) b.driver;
      chrome.executeCdpCommand("Browser.grantPermissions", Map.of("origin", s.base, "permissions", List.of("notifications")));
      var script = chrome.executeCdpCommand("Page.addScriptToEvaluateOnNewDocument", Map.of("source", HOOK));
      JavascriptExecutor js = (JavascriptExecutor) b.driver;
      try {
        b.open(s.page("#/agents"));
        b.await(By.id("agents-empty"));
        assertThat(js.executeScript("return Notification.permission")).isEqualTo("granted");
        assertThat(b.driver.getTitle()).isEqualTo("agentdesk");

        String id = NotificationsApiTest.claudeTerminal(s, dir, Map.of());
        new WebDriverWait(b.driver, Duration.ofSeconds(30)).until(d ->
            ((Number) js.executeScript("return window.__notifications.length")).intValue() > 0);
        assertThat(js.executeScript("return window.__notifications[0] instanceof window.Notification.__proto__"))
            .as("a real Notification").isEqualTo(true);
        assertThat(js.executeScript("return window.__notifications[0].title"))
            .isEqualTo("claude Add a retry (" + id + ") needs you");
        assertThat(js.executeScript("return window.__notifications[0].body")).isEqualTo("Which database should I use?");
        // The page title counts the sessions awaiting input, the toast names it too.
        new WebDriverWait(b.driver, Duration.ofSeconds(10)).until(d -> d.getTitle().equals("(1) agentdesk"));
        b.awaitText(By.id("toasts"), "needs you", 5);

        js.executeScript("window.__notifications[0].dispatchEvent(new Event('click'))");
        new WebDriverWait(b.driver, Duration.ofSeconds(10)).until(d -> d.getCurrentUrl().endsWith("#/terminals/" + id));
        b.awaitTerminalText("Which database should I use?", 20);

        // The auto-resume switch of the session, off by default, on with a click.
        b.await(By.id("auto-resume-toggle"));
        assertThat(b.driver.findElement(By.id("auto-resume-toggle")).isSelected()).isFalse();
        b.driver.findElement(By.id("auto-resume-toggle")).click();
        new WebDriverWait(b.driver, Duration.ofSeconds(10)).until(d ->
            s.get("/api/auto-resume/" + id).json().path("override").asBoolean());

        // The settings panel: this event no longer goes to webhooks.
        b.open(s.page("#/settings"));
        b.await(By.id("route-awaiting_input-webhook"));
        assertThat(b.driver.findElement(By.id("notify-permission-state")).getText()).contains("granted");
        b.driver.findElement(By.id("route-awaiting_input-webhook")).click();
        b.driver.findElement(By.id("setting-sound")).click();
        b.driver.findElement(By.id("settings-save")).click();
        b.awaitText(By.id("settings-saved"), "Saved", 10);
        var settings = s.get("/api/notifications").json().path("settings");
        assertThat(settings.path("events").path("awaiting_input").toString()).isEqualTo("[\"browser\",\"desktop\"]");
        assertThat(settings.path("sound").asBoolean()).isTrue();
        b.screenshot("notification-settings");
      } finally {
        chrome.executeCdpCommand("Page.removeScriptToEvaluateOnNewDocument", Map.of("identifier", script.get("identifier")));
      }
    }
  }
}
