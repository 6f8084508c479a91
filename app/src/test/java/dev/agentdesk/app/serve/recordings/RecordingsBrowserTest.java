package dev.agentdesk.app.serve.recordings;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.app.serve.Browser;
import dev.agentdesk.app.serve.TestServer;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The Recordings page in headless Chromium over recordings of real runtimes ({@link
 * RecordedSessions}): the list with its damaged rows; the player's canvas after a deep link, keys,
 * buttons and a click on the scrubber equals the REST frame of that step pixel for pixel; the click
 * marker sits on the click's point; play advances; the cut recording says so.
 */
@ExtendWith(Browser.Extension.class)
class RecordingsBrowserTest {
  static TestServer s;
  static JsonNode steps;

  @BeforeAll
  static void start() {
    s = TestServer.withRecordings(RecordedSessions.folder());
    steps = s.get("/api/recordings/session").json().path("steps");
  }

  @AfterAll
  static void stop() {
    s.close();
  }

  @Test
  void theListShowsEveryRecordingAndTheDamagedOnesSayWhy(Browser b) {
    b.open(s.page("#/recordings"));
    b.await(By.cssSelector("#recording-list tr[data-id='session'] a"));
    assertThat(b.driver.findElement(By.cssSelector(".tabs a.active")).getText()).isEqualTo("Recordings");
    assertThat(b.driver.findElement(By.cssSelector("tr[data-id='session']")).getText()).contains("ended cleanly")
        .contains("480×320");
    assertThat(b.driver.findElement(By.cssSelector("tr[data-id='killed']")).getText()).contains("cut");
    assertThat(b.driver.findElement(By.cssSelector("tr[data-id='corrupt']")).getText()).contains("corrupt_recording")
        .contains("line 5 is not JSON");
    assertThat(b.driver.findElement(By.cssSelector("tr[data-id='future']")).getText())
        .contains("unsupported_recording_version");
    b.screenshot("recordings-list");
    b.click(By.cssSelector("tr[data-id='session'] a"));
    b.await(By.id("rec-canvas"));
    awaitStep(b, firstFrameStep());
  }

  @Test
  void steppingScrubbingAndDeepLinksShowTheFrameOfThatStep(Browser b) throws Exception {
    int k = deltaStep(3);
    b.open(s.page("#/recordings/session?step=" + k));
    awaitStep(b, k);
    assertCanvasIsFrameOf(b, k);

    WebElement body = b.driver.findElement(By.tagName("body"));
    body.sendKeys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT);
    awaitStep(b, k + 3);
    assertCanvasIsFrameOf(b, k + 3);
    assertThat(b.driver.getCurrentUrl()).endsWith("#/recordings/session?step=" + (k + 3));

    b.click(By.id("rec-prev"));
    awaitStep(b, k + 2);
    assertCanvasIsFrameOf(b, k + 2);

    body.sendKeys(Keys.chord(Keys.SHIFT, Keys.ARROW_RIGHT));
    int nextAction = nextActionAfter(k + 2);
    awaitStep(b, nextAction);
    assertThat(b.driver.findElement(By.cssSelector("#rec-actions li.current")).getAttribute("data-step"))
        .isEqualTo(String.valueOf(nextAction));

    // A click on the scrubber at three quarters of its width jumps there.
    WebElement range = b.driver.findElement(By.id("rec-range"));
    int width = range.getSize().getWidth();
    new Actions(b.driver).moveToElement(range, width / 4, 0).click().perform();
    int scrubbed = currentStep(b);
    assertThat(scrubbed).isBetween((int) (steps.size() * 0.6), (int) (steps.size() * 0.9));
    awaitStep(b, scrubbed);
    assertCanvasIsFrameOf(b, scrubbed);

    // Home, then a click in the action list.
    body.sendKeys(Keys.HOME);
    awaitStep(b, 0);
    assertThat(b.driver.findElement(By.id("rec-no-frame")).isDisplayed()).isTrue();
    int typed = framedActionStep("type_text", 6);
    b.click(By.cssSelector("#rec-actions li[data-step='" + typed + "']"));
    awaitStep(b, typed);
    assertCanvasIsFrameOf(b, typed);
    assertThat(b.driver.findElement(By.id("rec-detail")).getText()).contains("type_text");
    assertThat(b.driver.findElement(By.id("rec-tree")).getText()).isEqualTo("No accessibility tree observed yet.");

    // After the structured observation the tree panel shows its tree_text, and keeps it.
    int byRef = -1;
    for (JsonNode st : steps) {
      if ("element_ref".equals(st.path("action").path("target").asText())) {
        byRef = st.path("index").asInt();
      }
    }
    b.open(s.page("#/recordings/session?step=" + byRef));
    awaitStep(b, byRef);
    String treeText = steps.get(steps.get(byRef).path("tree").asInt()).path("observation").path("tree_text").asText();
    assertThat(treeText).contains("OK");
    assertThat(b.driver.findElement(By.id("rec-tree")).getAttribute("textContent")).isEqualTo(treeText);
    b.screenshot("recording-player");
  }

  @Test
  void theClickMarkerSitsOnTheClicksPointAndPlayAdvances(Browser b) throws Exception {
    int click = actionStep("click");
    b.open(s.page("#/recordings/session?step=" + click));
    awaitStep(b, click);
    WebElement marker = b.await(By.id("rec-marker"));
    assertThat(marker.getAttribute("data-verb")).isEqualTo("click");
    assertThat(marker.getAttribute("class")).contains("now");
    @SuppressWarnings("unchecked")
    Map<String, Object> geo = (Map<String, Object>) js(b, "const c = document.getElementById('rec-canvas').getBoundingClientRect();"
        + "const m = document.getElementById('rec-marker').getBoundingClientRect();"
        + "return {cx: c.left, cy: c.top, cw: c.width, ch: c.height, mx: m.left + m.width / 2, my: m.top + m.height / 2};");
    double cw = num(geo.get("cw"));
    double ch = num(geo.get("ch"));
    assertThat(num(geo.get("mx")) - num(geo.get("cx"))).isCloseTo(RecordedSessions.CLICK_X * cw / 480, within(1.5));
    assertThat(num(geo.get("my")) - num(geo.get("cy"))).isCloseTo(RecordedSessions.CLICK_Y * ch / 320, within(1.5));
    // The ack after the click still shows the click's marker, no longer as the current step.
    b.driver.findElement(By.tagName("body")).sendKeys(Keys.ARROW_RIGHT);
    awaitStep(b, click + 1);
    assertThat(b.driver.findElement(By.id("rec-marker")).getAttribute("class")).doesNotContain("now");

    b.driver.findElement(By.tagName("body")).sendKeys(Keys.HOME);
    awaitStep(b, 0);
    b.click(By.id("rec-speed"));
    b.driver.findElement(By.cssSelector("#rec-speed option[value='8']")).click();
    b.click(By.id("rec-play"));
    new WebDriverWait(b.driver, Duration.ofSeconds(10)).until(d -> currentStep(b) > 10);
    b.click(By.id("rec-play"));
    assertThat(b.driver.findElement(By.id("rec-play")).getAttribute("data-playing")).isEqualTo("false");
    int paused = currentStep(b);
    Thread.sleep(500);
    assertThat(currentStep(b)).isEqualTo(paused);
    assertCanvasIsFrameOf(b, paused);
  }

  @Test
  void theCutRecordingPlaysToItsCutAndSaysSo(Browser b) throws Exception {
    JsonNode killed = s.get("/api/recordings/killed").json().path("steps");
    b.open(s.page("#/recordings/killed"));
    WebElement cut = b.await(By.id("recording-cut"));
    assertThat(cut.getText()).contains("This recording was cut").contains("connection 1 was still open");
    b.driver.findElement(By.tagName("body")).sendKeys(Keys.END);
    int last = killed.size() - 1;
    new WebDriverWait(b.driver, Duration.ofSeconds(10)).until(d -> currentStep(b) == last
        && String.valueOf(killed.get(last).path("frame").asInt()).equals(canvasFrame(b)));
    assertThat(b.await(By.id("rec-cut-here")).getText()).contains("cut here");
    assertCanvasIsFrameOf(b, "killed", last);
    b.screenshot("recording-cut");

    b.open(s.page("#/recordings/corrupt"));
    b.awaitText(By.id("view"), "corrupt", 10);
    assertThat(b.driver.findElement(By.id("view")).getText()).contains("line 5 is not JSON")
        .contains("move the segment out");
  }

  private static org.assertj.core.data.Offset<Double> within(double d) {
    return org.assertj.core.data.Offset.offset(d);
  }

  private static double num(Object o) {
    return ((Number) o).doubleValue();
  }

  private static Object js(Browser b, String script) {
    return ((JavascriptExecutor) b.driver).executeScript(script);
  }

  private static int currentStep(Browser b) {
    Object v = js(b, "const c = document.getElementById('rec-canvas'); return c ? c.dataset.step || '-1' : '-1';");
    return Integer.parseInt(String.valueOf(v));
  }

  private static String canvasFrame(Browser b) {
    return String.valueOf(js(b, "const c = document.getElementById('rec-canvas'); return c ? c.dataset.frame || '' : '';"));
  }

  /** Waits until the page is at step {@code k} and shows that step's frame. */
  private static void awaitStep(Browser b, int k) {
    String frame = String.valueOf(steps.get(k).path("frame").asInt());
    try {
      new WebDriverWait(b.driver, Duration.ofSeconds(10)).until(d -> currentStep(b) == k && frame.equals(canvasFrame(b)));
    } catch (RuntimeException e) {
      throw new AssertionError("the player did not reach step " + k + " (frame " + frame + "); at step "
          + currentStep(b) + ", frame " + canvasFrame(b) + "; console: " + b.console(), e);
    }
  }

  private static void assertCanvasIsFrameOf(Browser b, int step) throws Exception {
    assertCanvasIsFrameOf(b, "session", step);
  }

  private static void assertCanvasIsFrameOf(Browser b, String id, int step) throws Exception {
    String url = String.valueOf(js(b, "return document.getElementById('rec-canvas').toDataURL('image/png');"));
    byte[] shown = Base64.getDecoder().decode(url.substring(url.indexOf(',') + 1));
    HttpResponse<byte[]> rest = s.http.send(s.request("/api/recordings/" + id + "/frame?step=" + step).GET().build(),
        HttpResponse.BodyHandlers.ofByteArray());
    assertThat(rest.statusCode()).isEqualTo(200);
    assertThat(Arrays.equals(RecordingsApiTest.pixels(shown), RecordingsApiTest.pixels(rest.body())))
        .as("the canvas at step %d shows the REST frame of step %d", step, step).isTrue();
  }

  private static int firstFrameStep() {
    for (JsonNode st : steps) {
      if (st.path("frame").asInt() >= 0) {
        return st.path("index").asInt();
      }
    }
    throw new AssertionError("no frame");
  }

  /** The {@code nth} step whose frame is a composed delta, with three more steps after it. */
  private static int deltaStep(int nth) {
    int seen = 0;
    for (JsonNode st : steps) {
      int f = st.path("frame").asInt();
      if (f >= 0 && "delta".equals(steps.get(f).path("observation").path("kind").asText())
          && st.path("index").asInt() == f && ++seen == nth) {
        return f;
      }
    }
    throw new AssertionError("fewer than " + nth + " delta frames");
  }

  private static int nextActionAfter(int k) {
    for (int i = k + 1; i < steps.size(); i++) {
      if (steps.get(i).has("action")) {
        return i;
      }
    }
    return steps.size() - 1;
  }

  /** The {@code nth} action with {@code verb} taken once a frame was on screen. */
  private static int framedActionStep(String verb, int nth) {
    int seen = 0;
    for (JsonNode st : steps) {
      if (verb.equals(st.path("action").path("verb").asText()) && st.path("frame").asInt() >= 0 && ++seen == nth) {
        return st.path("index").asInt();
      }
    }
    throw new AssertionError("fewer than " + nth + " framed " + verb);
  }

  private static int actionStep(String verb) {
    for (JsonNode st : steps) {
      if (verb.equals(st.path("action").path("verb").asText())) {
        return st.path("index").asInt();
      }
    }
    throw new AssertionError("no " + verb);
  }

  static List<String> ids() {
    return List.of("session", "killed", "corrupt", "future");
  }
}
