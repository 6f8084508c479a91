package dev.agentdesk.app.serve.terminals;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.app.serve.Browser;
import dev.agentdesk.app.serve.TestServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Terminals in headless Chromium: a stand-in agent asks, the badge shows, a button answers; and the
 * terminal view is xterm.js on the program's bytes, after a repaint of what came before the page
 * opened: scrollback, colours, typing, resizing, the mouse and links, all from this server only.
 */
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
      b.awaitTerminalText("Do you want to make this edit to parser.rs?", 10);
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
      b.await(By.id("screen"));
      b.awaitTerminalText("Answered 1", 10);
      type(b, "hello from the browser\n");
      b.awaitTerminalText("You said: hello from the browser", 10);
      new WebDriverWait(b.driver, Duration.ofSeconds(5)).until(d -> !d.findElements(By.cssSelector("#term-links a")).isEmpty());
      b.screenshot("terminal-view");
    }
  }

  // ------------------------------------------------------------------ the browser terminal

  static Object js(Browser b, String script, Object... args) {
    return ((JavascriptExecutor) b.driver).executeScript(script, args);
  }


  /** Types into xterm.js's input element, as a person would with the terminal focused. */
  static void type(Browser b, String keys) {
    b.driver.findElement(By.cssSelector("#screen .xterm-helper-textarea")).sendKeys(keys);
  }

  /** The cell attributes of the first cell of {@code text} in the buffer: fg/bg mode and colour. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> cell(Browser b, String text) {
    return (Map<String, Object>) js(b, "const t = document.getElementById('screen').xterm; const buf = t.buffer.active;"
        + "for (let y = 0; y < buf.length; y++) { const line = buf.getLine(y); const x = line.translateToString().indexOf(arguments[0]);"
        + "  if (x < 0) continue; const c = line.getCell(x);"
        + "  return {fgRgb: c.isFgRGB(), fgPalette: c.isFgPalette(), fg: c.getFgColor(),"
        + "          bgRgb: c.isBgRGB(), bgPalette: c.isBgPalette(), bg: c.getBgColor(), row: y, col: x}; }"
        + "return null;", text);
  }

  private static String startTerminal(TestServer s, String argvJson, String extra) {
    TestServer.Response r = s.post("/api/terminals", "{\"argv\": " + argvJson + ", \"cols\": 100, \"rows\": 30"
        + extra + "}");
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json().get("id").asText();
  }

  private static void awaitSnapshot(TestServer s, String id, String text) {
    long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
    while (!s.get("/api/terminals/" + id + "/snapshot?format=text").body().contains(text)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the program never printed '" + text + "'");
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  @Test
  void aPageOpenedLateShowsTheScrollbackAndColoursThenTypingGoesToTheProgram(Browser b) {
    try (TestServer s = TestServer.start()) {
      String id = startTerminal(s, StandIns.argv("terminal-demo.sh"), "");
      awaitSnapshot(s, id, "ready");
      b.requestedUrls(); // starts the network log afresh
      b.open(s.page("#/terminals/" + id));
      b.awaitTerminalText("ready", 15);

      // Scrollback from before the page opened: all 200 lines, in order, above the screen.
      String all = b.terminalText();
      List<String> lines = List.of(all.split("\n"));
      int first = lines.indexOf("line 1");
      assertThat(first).as(all).isGreaterThanOrEqualTo(0);
      for (int i = 1; i <= 200; i++) {
        assertThat(lines.get(first + i - 1)).isEqualTo("line " + i);
      }
      Number baseY = (Number) js(b, "return document.getElementById('screen').xterm.buffer.active.baseY");
      assertThat(baseY.intValue()).as("rows in xterm.js's scrollback").isGreaterThan(150);

      // 256 colours and truecolour, as cell attributes, from the repaint.
      Map<String, Object> red = cell(b, "RED256");
      assertThat(red).containsEntry("fgPalette", true).containsEntry("fg", 196L);
      Map<String, Object> truecolour = cell(b, "TRUE");
      assertThat(truecolour).containsEntry("fgRgb", true).containsEntry("fg", (long) 0x0ac81e);
      assertThat(cell(b, "BLUEBG")).containsEntry("bgPalette", true).containsEntry("bg", 21L);
      // ... and drawn in those colours (the truecolour cell through a style the policy allows).
      js(b, "document.getElementById('screen').xterm.scrollToBottom()");
      assertThat(colourOf(b, "TRUE")).isEqualTo("rgb(10, 200, 30)");

      // Typing reaches the program; live output with colour arrives after the repaint.
      type(b, "hello from xterm\n");
      b.awaitTerminalText("You said: hello from xterm", 10);
      type(b, "colour\n");
      b.awaitTerminalText("SALMON", 10);
      assertThat(cell(b, "SALMON")).containsEntry("fgRgb", true).containsEntry("fg", (long) 0xfa8072);
      b.screenshot("terminal-xterm");

      // Scrolled to the top, the first lines are drawn.
      js(b, "document.getElementById('screen').xterm.scrollToTop()");
      new WebDriverWait(b.driver, Duration.ofSeconds(5)).until(d -> rowsText(b).contains("line 1"));
      assertThat(rowsText(b)).contains("line 2", "line 3");
      b.screenshot("terminal-xterm-scrollback");

      // Nothing came from anywhere but this server, and the policy refused nothing.
      String host = "127.0.0.1:" + s.server.port();
      List<String> urls = b.requestedUrls();
      assertThat(urls).isNotEmpty().allSatisfy(u -> assertThat(u).matches("(https?|wss?)://" + java.util.regex.Pattern.quote(host) + "/.*"));
      assertThat(urls).anyMatch(u -> u.endsWith("/vendor/xterm.js")).anyMatch(u -> u.contains("/ws/terminals/" + id));
      assertThat(b.console()).doesNotContain("Content Security Policy").doesNotContain("Refused");
      s.delete("/api/terminals/" + id);
    }
  }

  private static String rowsText(Browser b) {
    return b.driver.findElement(By.cssSelector("#screen .xterm-rows")).getText();
  }

  /** The computed colour of the DOM span that draws {@code text}. */
  private static String colourOf(Browser b, String text) {
    return (String) js(b, "for (const span of document.querySelectorAll('#screen .xterm-rows span')) {"
        + "  if (span.textContent.includes(arguments[0])) return getComputedStyle(span).color; } return null;", text);
  }

  @Test
  void theTerminalFollowsTheBoxAndThePtyGetsTheSize(Browser b) {
    try (TestServer s = TestServer.start()) {
      String id = startTerminal(s, StandIns.argv("terminal-demo.sh"), "");
      awaitSnapshot(s, id, "ready");
      Dimension before = b.driver.manage().window().getSize();
      try {
        b.driver.manage().window().setSize(new Dimension(1400, 900));
        b.open(s.page("#/terminals/" + id));
        b.awaitTerminalText("ready", 15);
        int[] large = awaitFittedSize(b, s, id, null);
        b.driver.manage().window().setSize(new Dimension(1000, 700));
        int[] small = awaitFittedSize(b, s, id, large);
        assertThat(small[0]).isLessThan(large[0]);
        assertThat(small[1]).isLessThan(large[1]);
        type(b, "size\n");
        // stty in the program reads the PTY: rows, then columns.
        b.awaitTerminalText("size: " + small[1] + " " + small[0], 10);
      } finally {
        b.driver.manage().window().setSize(before);
      }
      s.delete("/api/terminals/" + id);
    }
  }

  /** Waits until the PTY (the API's size) and xterm.js agree on a size other than {@code not}. */
  private static int[] awaitFittedSize(Browser b, TestServer s, String id, int[] not) {
    int[][] got = new int[1][];
    new WebDriverWait(b.driver, Duration.ofSeconds(10)).until(d -> {
      var t = s.get("/api/terminals/" + id).json();
      int cols = t.get("cols").asInt();
      int rows = t.get("rows").asInt();
      Number xc = (Number) js(b, "return document.getElementById('screen').xterm.cols");
      Number xr = (Number) js(b, "return document.getElementById('screen').xterm.rows");
      boolean same = xc.intValue() == cols && xr.intValue() == rows && !(cols == 100 && rows == 30);
      if (same && (not == null || not[0] != cols)) {
        got[0] = new int[] {cols, rows};
        return true;
      }
      return false;
    });
    return got[0];
  }

  @Test
  void aFullScreenProgramThatTracksTheMouseGetsAClickAsAReport(Browser b) {
    try (TestServer s = TestServer.start()) {
      String id = startTerminal(s, "[\"python3\", \"" + StandIns.path("mouse-report.py") + "\"]", "");
      awaitSnapshot(s, id, "mouse demo ready");
      // The page opens after the program turned tracking on: the repaint carries the modes.
      b.open(s.page("#/terminals/" + id));
      b.awaitTerminalText("mouse demo ready", 15);
      assertThat(js(b, "return document.getElementById('screen').xterm.modes.mouseTrackingMode")).isEqualTo("vt200");
      assertThat(js(b, "return document.getElementById('screen').xterm.buffer.active.type")).isEqualTo("alternate");

      WebElement screen = b.driver.findElement(By.cssSelector("#screen .xterm-screen"));
      int col = 10;
      int row = 5;
      new Actions(b.driver).moveToElement(screen, cellOffsetX(b, screen, col), cellOffsetY(b, screen, row)).click().perform();
      // Button 1 pressed and released at column 11, row 6 (1-based), in the SGR encoding.
      // (one read may hold both reports)
      b.awaitTerminalText("\\x1b[<0;" + (col + 1) + ";" + (row + 1) + "M", 10);
      b.awaitTerminalText("\\x1b[<0;" + (col + 1) + ";" + (row + 1) + "m", 10);
      b.screenshot("terminal-xterm-mouse");
      s.delete("/api/terminals/" + id);
    }
  }

  /** Selenium offsets are from the element's centre; the middle of cell {@code col}. */
  private static int cellOffsetX(Browser b, WebElement screen, int col) {
    double width = screen.getRect().getWidth();
    double cell = width / ((Number) js(b, "return document.getElementById('screen').xterm.cols")).intValue();
    return (int) Math.round((col + 0.5) * cell - width / 2);
  }

  private static int cellOffsetY(Browser b, WebElement screen, int row) {
    double height = screen.getRect().getHeight();
    double cell = height / ((Number) js(b, "return document.getElementById('screen').xterm.rows")).intValue();
    return (int) Math.round((row + 0.5) * cell - height / 2);
  }

  @Test
  void aUrlTheProgramPrintsIsALinkThatOpensInANewTab(Browser b) {
    try (TestServer s = TestServer.start()) {
      String link = s.base + "/api/health";
      String id = startTerminal(s, StandIns.argv("terminal-demo.sh"), ", \"env\": {\"DEMO_LINK\": \"" + link + "\"}");
      b.open(s.page("#/terminals/" + id));
      b.awaitTerminalText("for details", 15);
      Map<String, Object> at = cell(b, link);
      js(b, "document.getElementById('screen').xterm.scrollToBottom()");
      Number baseY = (Number) js(b, "return document.getElementById('screen').xterm.buffer.active.viewportY");
      int row = ((Number) at.get("row")).intValue() - baseY.intValue();
      int col = ((Number) at.get("col")).intValue() + 3;
      String page = b.driver.getWindowHandle();
      Set<String> before = b.driver.getWindowHandles();
      WebElement screen = b.driver.findElement(By.cssSelector("#screen .xterm-screen"));
      // The web-links addon finds the link on hover; a click opens it.
      new Actions(b.driver).moveToElement(screen, cellOffsetX(b, screen, col), cellOffsetY(b, screen, row)).pause(300)
          .click().perform();
      new WebDriverWait(b.driver, Duration.ofSeconds(10)).until(d -> d.getWindowHandles().size() > before.size());
      String tab = b.driver.getWindowHandles().stream().filter(h -> !before.contains(h)).findFirst().orElseThrow();
      try {
        b.driver.switchTo().window(tab);
        new WebDriverWait(b.driver, Duration.ofSeconds(10)).until(d -> link.equals(d.getCurrentUrl()));
        assertThat(js(b, "return window.opener")).as("opened without a way back to the dashboard").isNull();
      } finally {
        b.driver.close();
        b.driver.switchTo().window(page);
      }
      s.delete("/api/terminals/" + id);
    }
  }
}
