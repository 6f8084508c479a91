package dev.agentdesk.app.serve;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's headless Chromium driven through Selenium and Debian's chromedriver: one browser for
 * the whole test run (a JUnit root-store resource closes it at the end), a fresh profile each run.
 * Inject it as a test parameter with {@code @ExtendWith(Browser.Extension.class)}.
 */
public final class Browser implements AutoCloseable {
  static final Path SCREENSHOTS = Path.of("target", "screenshots");

  public final WebDriver driver;
  private final Path profile;

  private Browser() {
    try {
      profile = Files.createTempDirectory("agentdesk-chromium");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ChromeOptions options = new ChromeOptions();
    options.setBinary("/usr/bin/chromium");
    options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
        "--user-data-dir=" + profile, "--window-size=1400,900", "--force-device-scale-factor=1",
        "--lang=en-US");
    // "performance" records every request and WebSocket the page makes (see requestedUrls).
    options.setCapability("goog:loggingPrefs", java.util.Map.of("browser", "ALL", "performance", "ALL"));
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(Path.of("/usr/bin/chromedriver").toFile())
        .usingAnyFreePort()
        .build();
    driver = new ChromeDriver(service, options);
    driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(10));
  }

  public void open(String url) {
    driver.get(url);
  }

  public WebElement await(By by) {
    return await(by, 10);
  }

  public WebElement await(By by, int seconds) {
    return new WebDriverWait(driver, Duration.ofSeconds(seconds)).until(ExpectedConditions.visibilityOfElementLocated(by));
  }

  /**
   * Clicks the element {@code by} finds, finding it again when the page re-rendered it between
   * the find and the click (live pages redraw on every server event).
   */
  public void click(By by) {
    new WebDriverWait(driver, Duration.ofSeconds(10))
        .ignoring(org.openqa.selenium.StaleElementReferenceException.class)
        .until(d -> {
          d.findElement(by).click();
          return true;
        });
  }

  public void awaitText(By by, String text, int seconds) {
    new WebDriverWait(driver, Duration.ofSeconds(seconds)).until(ExpectedConditions.textToBePresentInElementLocated(by, text));
  }

  public void awaitGone(By by, int seconds) {
    new WebDriverWait(driver, Duration.ofSeconds(seconds)).until(ExpectedConditions.invisibilityOfElementLocated(by));
  }

  /**
   * The text of the xterm.js terminal on the page (its whole buffer: scrollback and screen), one
   * line per row, trailing blanks trimmed; empty while there is none. Read from xterm.js's buffer,
   * not the drawn rows: what the socket delivered, whenever the renderer gets to draw it.
   */
  public String terminalText() {
    return (String) ((org.openqa.selenium.JavascriptExecutor) driver).executeScript(
        "const el = document.getElementById('screen'); if (!el || !el.xterm) return '';"
            + "const buf = el.xterm.buffer.active; const out = [];"
            + "for (let i = 0; i < buf.length; i++) out.push(buf.getLine(i).translateToString(true));"
            + "return out.join('\\n');");
  }

  /** Waits until the xterm.js terminal's buffer contains {@code text}. */
  public void awaitTerminalText(String text, int seconds) {
    try {
      new WebDriverWait(driver, Duration.ofSeconds(seconds)).until(d -> terminalText().contains(text));
    } catch (RuntimeException e) {
      throw new AssertionError("the terminal never showed '" + text + "' within " + seconds + " s; buffer:\n"
          + terminalText() + "\nconsole: " + console(), e);
    }
  }

  /** The page's console messages since the last call (errors included), one per line. */
  public String console() {
    StringBuilder sb = new StringBuilder();
    for (var e : driver.manage().logs().get(org.openqa.selenium.logging.LogType.BROWSER)) {
      sb.append(e.getLevel()).append(' ').append(e.getMessage()).append('\n');
    }
    return sb.toString();
  }

  /**
   * Every URL the browser requested or opened a WebSocket to since the last call, in order, from
   * Chromium's network log (this also empties the log, so call it once before what you measure).
   */
  public java.util.List<String> requestedUrls() {
    java.util.List<String> urls = new java.util.ArrayList<>();
    for (var e : driver.manage().logs().get(org.openqa.selenium.logging.LogType.PERFORMANCE)) {
      try {
        var message = dev.agentdesk.app.serve.Json.MAPPER.readTree(e.getMessage()).path("message");
        String method = message.path("method").asText();
        if (method.equals("Network.requestWillBeSent")) {
          urls.add(message.path("params").path("request").path("url").asText());
        } else if (method.equals("Network.webSocketCreated")) {
          urls.add(message.path("params").path("url").asText());
        }
      } catch (IOException ex) {
        throw new UncheckedIOException(ex);
      }
    }
    return urls;
  }

  /** The URLs of the tab's back/forward history. */
  public java.util.List<String> historyUrls() {
    @SuppressWarnings("unchecked")
    var entries = (java.util.List<java.util.Map<String, Object>>) ((ChromeDriver) driver)
        .executeCdpCommand("Page.getNavigationHistory", java.util.Map.of()).get("entries");
    return entries.stream().map(e -> String.valueOf(e.get("url"))).toList();
  }

  /** Saves the viewport as target/screenshots/NAME.png and returns the file. */
  public Path screenshot(String name) {
    try {
      Files.createDirectories(SCREENSHOTS);
      byte[] png = ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES);
      Path file = SCREENSHOTS.resolve(name + ".png");
      Files.write(file, png);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    try {
      driver.quit();
    } finally {
      deleteTree(profile);
    }
  }

  private static void deleteTree(Path dir) {
    try (var paths = Files.walk(dir)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // A profile left in /tmp is harmless; the run result does not depend on it.
    }
  }

  /** Supplies the shared {@link Browser} to test methods and constructors. */
  public static final class Extension implements ParameterResolver {
    @Override
    public boolean supportsParameter(ParameterContext p, ExtensionContext c) {
      return p.getParameter().getType() == Browser.class;
    }

    @Override
    public Object resolveParameter(ParameterContext p, ExtensionContext c) {
      return c.getRoot().getStore(ExtensionContext.Namespace.create(Browser.class))
          .getOrComputeIfAbsent("browser", k -> new Resource(new Browser()), Resource.class).browser;
    }
  }

  private record Resource(Browser browser) implements ExtensionContext.Store.CloseableResource, AutoCloseable {
    @Override
    public void close() {
      browser.close();
    }
  }
}
