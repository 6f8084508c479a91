package dev.agentdesk.app.serve.sandboxes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.aci.runtime.AciRuntime;
import dev.agentdesk.app.serve.Browser;
import dev.agentdesk.app.serve.TestServer;
import dev.agentdesk.testkit.XDisplay;
import dev.agentdesk.testkit.XvfbConfig;
import dev.agentdesk.testkit.XvfbExtension;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;

/**
 * Sandboxes against the real ACI runtime on a real Xvfb: register by URL and token, screenshot,
 * act (the effect checked on the X server), the bad-input cases, and the live view in Chromium.
 */
@ExtendWith({XvfbExtension.class, Browser.Extension.class})
@XvfbConfig(width = 1024, height = 640)
class SandboxesTest {
  static final String TOKEN = "sandbox-token-0123456789";
  static AciRuntime runtime;
  static TestServer s;
  static Process window;
  static java.nio.file.Path windowOut;

  @BeforeAll
  static void start(XDisplay x) throws Exception {
    runtime = AciRuntime.start(new AciRuntime.Options("127.0.0.1", 0, TOKEN, false, List.of(), x.name(), null, "test"));
    s = TestServer.start();
    // Something to look at and type into: a zenity text entry on the sandbox's screen.
    ProcessBuilder pb = new ProcessBuilder("zenity", "--entry", "--title=Sandbox", "--text=Type here");
    pb.environment().put("DISPLAY", x.name());
    windowOut = java.nio.file.Files.createTempFile("zenity", ".out");
    pb.redirectError(ProcessBuilder.Redirect.DISCARD).redirectOutput(windowOut.toFile());
    window = pb.start();
    Thread.sleep(1500);
  }

  @AfterAll
  static void stop() {
    if (window != null) {
      window.destroyForcibly();
    }
    if (s != null) {
      s.close();
    }
    if (runtime != null) {
      runtime.close();
    }
  }

  static String url() {
    return "ws://127.0.0.1:" + runtime.port() + "/";
  }

  static String register() {
    var r = s.post("/api/sandboxes", "{\"url\": \"" + url() + "\", \"token\": \"" + TOKEN + "\", \"name\": \"xvfb\"}");
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json().get("id").asText();
  }

  @Test
  void registerScreenshotActAndRemove() throws Exception {
    String id = register();
    JsonNode sb = s.get("/api/sandboxes/" + id).json();
    assertThat(sb.get("platform").asText()).isEqualTo("linux");
    assertThat(sb.get("screen").get("width").asInt()).isEqualTo(1024);
    assertThat(sb.get("connected").asBoolean()).isTrue();
    assertThat(s.get("/api/sandboxes").json()).extracting(j -> j.get("id").asText()).contains(id);

    HttpResponse<byte[]> png = s.http.send(s.request("/api/sandboxes/" + id + "/screenshot").build(),
        HttpResponse.BodyHandlers.ofByteArray());
    assertThat(png.statusCode()).isEqualTo(200);
    assertThat(png.headers().firstValue("Content-Type")).contains("image/png");
    assertThat(png.body()).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
    HttpResponse<byte[]> jpeg = s.http.send(s.request("/api/sandboxes/" + id
        + "/screenshot?format=jpeg&quality=60&max_long_edge=512").build(), HttpResponse.BodyHandlers.ofByteArray());
    assertThat(jpeg.statusCode()).isEqualTo(200);
    assertThat(jpeg.body()).startsWith((byte) 0xFF, (byte) 0xD8);

    assertThat(s.post("/api/sandboxes/" + id + "/act", "{\"verb\": \"move\", \"x\": 10, \"y\": 20}").json().get("ok").asBoolean()).isTrue();
    assertThat(s.post("/api/sandboxes/" + id + "/act", "{\"verb\": \"key\", \"key\": \"shift\"}").status()).isEqualTo(200);

    assertThat(s.delete("/api/sandboxes/" + id).status()).isEqualTo(204);
    assertThat(s.get("/api/sandboxes/" + id).status()).isEqualTo(404);
  }

  @Test
  void aGivenIdIsKeptAndATakenOneIsAConflict() {
    String body = "{\"url\": \"" + url() + "\", \"token\": \"" + TOKEN + "\", \"id\": \"cafe0123\"}";
    var r = s.post("/api/sandboxes", body);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    assertThat(r.json().get("id").asText()).isEqualTo("cafe0123");
    assertThat(s.get("/api/sandboxes/cafe0123").status()).isEqualTo(200);
    var again = s.post("/api/sandboxes", body);
    assertThat(again.status()).isEqualTo(409);
    assertThat(again.json().get("message").asText()).contains("cafe0123 is registered already");
    var bad = s.post("/api/sandboxes", "{\"url\": \"" + url() + "\", \"id\": \"../x\"}");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.json().get("message").asText()).contains("id must be");
    assertThat(s.delete("/api/sandboxes/cafe0123").status()).isEqualTo(204);
  }

  @Test
  void badRegistrationsAreClearErrors() {
    String[][] cases = {
        {"{}", "400", "url is required"},
        {"{\"url\": \"http://127.0.0.1:1/\"}", "400", "ws://"},
        {"{\"url\": \"not a url\"}", "400", "url"},
        {"{\"url\": \"" + url() + "\", \"token\": \"wrong-token-wrong-token\"}", "502", "sandbox"},
        {"{\"url\": \"ws://127.0.0.1:1/\", \"token\": \"x\"}", "502", "sandbox"},
    };
    for (String[] c : cases) {
      var r = s.post("/api/sandboxes", c[0]);
      assertThat(r.status()).as(c[0] + " → " + r.body()).isEqualTo(Integer.parseInt(c[1]));
      assertThat(r.json().get("message").asText()).as(c[0]).contains(c[2]);
    }
  }

  @Test
  void badActionsAre400sAndSendNothing() {
    String id = register();
    String[][] cases = {
        {"{\"verb\": \"teleport\"}", "verb must be"},
        {"{\"verb\": \"click\"}", "needs x and y"},
        {"{\"verb\": \"click\", \"x\": -5, \"y\": 3}", "non-negative"},
        {"{\"verb\": \"type\"}", "type needs text"},
        {"{\"verb\": \"clipboard_set\"}", "clipboard_set needs text"},
        {"{\"verb\": \"mouse_down\"}", "needs x and y"},
        {"{\"verb\": \"key\", \"key\": \"a\", \"paste\": true}", "paste applies to clipboard_set"},
        {"{\"verb\": \"scroll\", \"x\": 1, \"y\": 1}", "scroll needs dx"},
        {"{\"verb\": \"click\", \"x\": 1, \"y\": 1, \"z\": 1}", "unknown field 'z'"},
    };
    for (String[] c : cases) {
      var r = s.post("/api/sandboxes/" + id + "/act", c[0]);
      assertThat(r.status()).as(c[0] + " → " + r.body()).isEqualTo(400);
      assertThat(r.json().get("message").asText()).as(c[0]).contains(c[1]);
    }
    assertThat(s.get("/api/sandboxes/" + id + "/screenshot?format=gif").status()).isEqualTo(400);
    assertThat(s.get("/api/sandboxes/" + id + "/screenshot?format=png&quality=50").status()).isEqualTo(400);
    assertThat(s.get("/api/sandboxes/nope/screenshot").status()).isEqualTo(404);
    for (String[] c : new String[][] {{"5000", "settle_ms must be between 0 and 3000"}, {"-1", "between 0 and 3000"},
        {"soon", "settle_ms must be a whole number, got 'soon'"}}) {
      var r = s.get("/api/sandboxes/" + id + "/observe?settle_ms=" + c[0]);
      assertThat(r.status()).as(c[0] + " → " + r.body()).isEqualTo(400);
      assertThat(r.json().get("message").asText()).contains(c[1]);
    }
    s.delete("/api/sandboxes/" + id);
  }

  @Test
  void liveViewShowsTheScreenAndTypesIntoIt(Browser b) throws Exception {
    b.open(s.page("#/sandboxes"));
    b.await(By.id("new-sandbox"));
    b.driver.findElement(By.id("sandbox-url")).sendKeys(url());
    b.driver.findElement(By.id("sandbox-token")).sendKeys(TOKEN);
    b.driver.findElement(By.id("sandbox-name")).sendKeys("zenity on Xvfb", Keys.ENTER);
    b.awaitText(By.id("live-state"), "live", 15);
    new org.openqa.selenium.support.ui.WebDriverWait(b.driver, java.time.Duration.ofSeconds(10))
        .until(d -> ((Number) ((org.openqa.selenium.JavascriptExecutor) d)
            .executeScript("return document.getElementById('screen-canvas').width")).intValue() == 1024);
    // This runtime has no accessibility bus: the tree panel says so, the screen and input work on.
    new org.openqa.selenium.support.ui.WebDriverWait(b.driver, java.time.Duration.ofSeconds(15))
        .until(d -> !d.findElement(By.id("a11y-error")).getText().isBlank());
    assertThat(b.driver.findElement(By.id("a11y-error")).getText()).startsWith("sandbox: ");
    b.driver.findElement(By.id("type-text")).sendKeys("typed via agentdesk", Keys.ENTER);
    b.awaitText(By.id("act-status"), "type sent", 10);
    Thread.sleep(800); // the next frames show the typed text
    b.screenshot("sandbox-view");
    // Enter through the dashboard's key button: zenity prints what it received and exits.
    b.driver.findElements(By.cssSelector(".form-row > button")).stream()
        .filter(e -> e.getText().equals("Return")).findFirst().orElseThrow().click();
    assertThat(window.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    assertThat(java.nio.file.Files.readString(windowOut).strip()).isEqualTo("typed via agentdesk");
    b.open(s.page("#/sandboxes"));
    b.await(By.cssSelector("#sandbox-list .card h3 a"));
    b.screenshot("sandboxes");
  }
}
