package dev.agentdesk.app.serve.sandboxes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.app.serve.Browser;
import dev.agentdesk.app.serve.TestServer;
import dev.agentdesk.app.serve.WsClient;
import dev.agentdesk.app.serve.mcp.AccessibleRuntime;
import dev.agentdesk.testkit.XDisplay;
import dev.agentdesk.testkit.XvfbConfig;
import dev.agentdesk.testkit.XvfbExtension;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.interactions.WheelInput;

/**
 * The sandbox page's live view on real parts: a real {@code agentdesk runtime} (its own JVM, a
 * session bus with the accessibility bus, a zenity dialog) on a test Xvfb, a real serve, headless
 * Chromium. What the canvas shows is compared with the runtime's own screenshot pixel for pixel;
 * clicks, scrolls, keys and a drag are read back from xev on the display, a paste from the
 * sandbox's clipboard (xclip) and its ctrl+v from xev; a whole-screen change goes as one jpeg smaller than its png and the
 * canvas ends exact; a tree ref click closes the dialog; a killed runtime shows as gone and comes back when started again; bad messages on the
 * viewer socket are typed errors that leave the stream running.
 */
@ExtendWith({XvfbExtension.class, Browser.Extension.class})
@XvfbConfig(width = 1024, height = 640)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LiveViewTest {
  static final Pattern BUTTON = Pattern.compile("ButtonPress event.*?root:\\((\\d+),(\\d+)\\).*?button (\\d+)", Pattern.DOTALL);
  static final Pattern KEY = Pattern.compile("KeyPress event.*?\\(keysym 0x[0-9a-f]+, (\\w+)\\)", Pattern.DOTALL);

  static XDisplay display;
  static Path dir;
  static AccessibleRuntime runtime;
  static TestServer s;
  static String id;
  static List<Process> clients = new ArrayList<>();

  @BeforeAll
  static void start(XDisplay x) throws Exception {
    display = x;
    dir = Files.createTempDirectory("agentdesk-live-view");
    runtime = AccessibleRuntime.start(x.name(), dir);
    s = TestServer.start();
    var r = s.post("/api/sandboxes", "{\"url\": \"" + runtime.url + "\", \"token\": \"" + AccessibleRuntime.TOKEN
        + "\", \"name\": \"live\"}");
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    id = r.json().get("id").asText();
  }

  @AfterAll
  static void stop() {
    clients.forEach(Process::destroyForcibly);
    if (s != null) {
      s.close();
    }
    if (runtime != null) {
      runtime.close();
    }
  }

  @Test
  @Order(1)
  void theCanvasShowsWhatTheDisplayShows(Browser b) throws Exception {
    openLive(b);
    x("xsetroot", "-solid", "#1f6feb").waitFor();
    awaitTrue(() -> pixel(b, 3, 3) == 0x1f6feb, "the canvas shows the new root colour", 10);
    assertSameAsScreenshot(b);
    // A window mapped on the display appears on the canvas as well.
    clients.add(x("xterm", "-geometry", "20x4+40+40", "-bg", "#e0115f", "+bc"));
    awaitTrue(() -> pixel(b, 60, 90) == 0xe0115f, "the canvas shows the new xterm", 15);
    assertSameAsScreenshot(b);
  }

  @Test
  @Order(2)
  void clicksScrollsAndKeysLandAtTheMappedScreenPoint(Browser b) throws Exception {
    openLive(b);
    Path events = xev("xev.txt", "400x240+600+380", "button", "keyboard");
    awaitTrue(() -> pixel(b, 800, 500) != 0x1f6feb, "the xev window is on the canvas", 15);
    // Shown smaller than the screen: 640 CSS px for 1024 screen px.
    WebElement canvas = b.driver.findElement(By.id("screen-canvas"));
    js(b, "arguments[0].style.width = '640px';", canvas);
    double scale = 1024.0 / ((Number) js(b, "return arguments[0].getBoundingClientRect().width;", canvas)).doubleValue();
    assertThat(scale).isEqualTo(1.6);
    int cssX = 500;
    int cssY = 312;
    int offX = cssX - 320;
    int offY = cssY - 200;
    new Actions(b.driver).moveToElement(canvas, offX, offY).click().perform();
    awaitPresses(events, 1);
    new Actions(b.driver).moveToElement(canvas, offX, offY).contextClick().perform();
    awaitPresses(events, 2);
    new Actions(b.driver).moveToElement(canvas, offX, offY).doubleClick().perform();
    awaitPresses(events, 4);
    new Actions(b.driver).scrollFromOrigin(WheelInput.ScrollOrigin.fromElement(canvas, offX, offY), 0, 200).perform();
    awaitPresses(events, 6);
    List<int[]> presses = presses(events);
    // 200 px of wheel are two wheel clicks (the runtime scrolls one click per 100 px).
    assertThat(presses).extracting(p -> p[2]).containsExactly(1, 3, 1, 1, 5, 5);
    for (int[] p : presses) {
      // The screen point the CSS point maps to, within the rounding of one CSS pixel.
      assertThat(p[0]).as("root x").isBetween((int) (cssX * 1.6) - 2, (int) (cssX * 1.6) + 2);
      assertThat(p[1]).as("root y").isBetween((int) (cssY * 1.6) - 2, (int) (cssY * 1.6) + 2);
    }
    // Keys go to the window under the pointer (the xev window): text as type, the rest as key combos.
    new Actions(b.driver).sendKeys("Hi there" + Keys.ENTER).perform();
    new Actions(b.driver).keyDown(Keys.CONTROL).sendKeys("l").keyUp(Keys.CONTROL).perform();
    List<String> expected = List.of("H", "i", "space", "t", "h", "e", "r", "e", "Return", "Control_L", "l");
    awaitTrue(() -> keys(events).size() >= expected.size(), "xev saw the keys", 10);
    assertThat(keys(events)).containsExactlyElementsOf(expected);
  }

  @Test
  @Order(3)
  void aTreeRefClickActsOnThatElement(Browser b) throws Exception {
    openLive(b);
    b.click(By.id("a11y-refresh"));
    awaitTrue(() -> treeText(b).contains("\"OK\" Actions:Click"), () -> "the tree shows zenity's dialog; it shows:\n"
        + treeText(b) + "\nerror: " + b.driver.findElement(By.id("a11y-error")).getText(), 20);
    clickRef(b, "text (editable");
    js(b, "document.getElementById('screen-canvas').focus();");
    new Actions(b.driver).sendKeys("via tree").perform();
    // The tree follows actions: it is read again after the typing, with the entry's new value.
    awaitTrue(() -> treeText(b).contains("Value:\"via tree\""), "the tree shows the typed value", 15);
    clickRef(b, "\"OK\" Actions:Click");
    awaitTrue(() -> !treeText(b).contains("\"OK\" Actions:Click"), "the dialog closed", 15);
  }

  @Test
  @Order(4)
  void badMessagesOnTheViewerSocketAreTypedErrorsAndTheStreamGoesOn(Browser b) throws Exception {
    openLive(b);
    // Leaving the page inside the dashboard, and then the dashboard itself, ends its viewer.
    js(b, "location.hash = '#/sandboxes';");
    awaitTrue(() -> s.get("/api/sandboxes/" + id).json().get("viewers").asInt() == 0,
        () -> "the page left: " + s.get("/api/sandboxes/" + id).body(), 10);
    openLive(b);
    b.open("about:blank");
    awaitTrue(() -> s.get("/api/sandboxes/" + id).json().get("viewers").asInt() == 0,
        () -> "the browser left: " + s.get("/api/sandboxes/" + id).body(), 10);
    String path = "/ws/sandboxes/" + id + "/screen";
    try (WsClient one = s.ws(path); WsClient two = s.ws(path)) {
      one.await(m -> m.path("type").asText().equals("state") && m.path("state").asText().equals("live"), 15);
      one.await(m -> m.path("type").asText().equals("binary"), 10);
      two.await(m -> m.path("type").asText().equals("binary"), 10);
      JsonNode sb = s.get("/api/sandboxes/" + id).json();
      assertThat(sb.get("viewers").asInt()).isEqualTo(2);
      assertThat(sb.get("streaming").asBoolean()).isTrue();

      String[][] cases = {
          {"not json", "invalid_json"},
          {"[1, 2]", "invalid_json"},
          {"{\"type\": \"teleport\"}", "bad_request"},
          {"{\"verb\": \"click\"}", "bad_request"},
          {"{\"type\": \"act\", \"id\": \"a1\", \"verb\": \"click\"}", "bad_request"},
          {"{\"type\": \"act\", \"id\": \"a2\", \"verb\": \"click\", \"ref\": \"zz\"}", "bad_request"},
          {"{\"type\": \"act\", \"id\": \"a3\", \"verb\": \"type\", \"x\": 1, \"ref\": \"e1\", \"text\": \"x\"}", "bad_request"},
          {"{\"type\": \"act\", \"id\": \"a4\", \"verb\": \"click\", \"x\": 1, \"y\": 1, \"z\": 1}", "bad_request"},
      };
      for (String[] c : cases) {
        one.send(c[0]);
        JsonNode e = one.await(m -> m.path("type").asText().equals("error"), 10);
        assertThat(e.path("code").asText()).as(c[0] + " → " + e).isEqualTo(c[1]);
        assertThat(e.path("message").asText()).as(c[0]).isNotBlank();
      }
      one.send("x".repeat(LiveViewSocket.MAX_MESSAGE + 1));
      assertThat(one.await(m -> m.path("type").asText().equals("error"), 10).path("code").asText())
          .isEqualTo("payload_too_large");
      one.sendBinary(new byte[] {1, 2, 3});
      assertThat(one.await(m -> m.path("type").asText().equals("error"), 10).path("message").asText())
          .contains("not binary");
      // The stream is alive: a keyframe asked for arrives, and a good act is answered with its id.
      one.send("{\"type\": \"keyframe\"}");
      one.await(m -> m.path("type").asText().equals("binary"), 10);
      one.send("{\"type\": \"act\", \"id\": \"ok1\", \"verb\": \"move\", \"x\": 5, \"y\": 5}");
      JsonNode acted = one.await(m -> m.path("type").asText().equals("acted"), 10);
      assertThat(acted.path("id").asText()).isEqualTo("ok1");
      assertThat(acted.path("ok").asBoolean()).isTrue();
    }
    awaitTrue(() -> s.get("/api/sandboxes/" + id).json().get("viewers").asInt() == 0, "both viewers left", 10);
    awaitTrue(() -> !s.get("/api/sandboxes/" + id).json().get("streaming").asBoolean(),
        "the screencast stopped with the last viewer", 10);

    assertThatThrownBy(() -> s.ws("/ws/sandboxes/nope/screen"))
        .satisfies(e -> assertThat(handshakeStatus(e)).isEqualTo(404));
    assertThatThrownBy(() -> WsClient.connect("ws://127.0.0.1:" + s.server.port() + "/ws/sandboxes/" + id + "/screen",
        Map.of("Authorization", "Bearer " + s.token.orElseThrow(), "Origin", "http://evil.example")))
        .satisfies(e -> assertThat(handshakeStatus(e)).isEqualTo(403));
    assertThatThrownBy(() -> WsClient.connect("ws://127.0.0.1:" + s.server.port() + "/ws/sandboxes/" + id + "/screen"))
        .satisfies(e -> assertThat(handshakeStatus(e)).isEqualTo(401));
  }

  @Test
  @Order(5)
  void aKilledRuntimeShowsAsGoneAndComesBackWhenStartedAgain(Browser b) throws Exception {
    openLive(b);
    int port = runtime.port();
    runtime.close();
    b.awaitText(By.id("live-state"), "runtime gone", 20);
    assertThat(b.driver.findElement(By.id("live-message")).getText()).contains("Start it again").contains(runtime.url);
    runtime = AccessibleRuntime.start(display.name(), dir, port);
    b.awaitText(By.id("live-state"), "live", 30);
    x("xsetroot", "-solid", "#2ea043").waitFor();
    awaitTrue(() -> pixel(b, 3, 3) == 0x2ea043, "the canvas follows the display again", 10);
    assertSameAsScreenshot(b);
  }

  static final Pattern PRESS = Pattern.compile("ButtonPress event.*?root:\\((\\d+),(\\d+)\\).*?button (\\d+)", Pattern.DOTALL);
  static final Pattern DRAGGED = Pattern.compile("MotionNotify event.*?root:\\((\\d+),(\\d+)\\),\\s+state 0x100",
      Pattern.DOTALL);
  static final Pattern RELEASE = Pattern.compile("ButtonRelease event.*?root:\\((\\d+),(\\d+)\\).*?button (\\d+)",
      Pattern.DOTALL);

  @Test
  @Order(6)
  void aDragOnTheCanvasPressesMovesAndReleasesInTheSandbox(Browser b) throws Exception {
    openLive(b);
    Path events = xev("xev-drag.txt", "400x240+600+380", "mouse", "structure");
    awaitTrue(() -> read(events).contains("MapNotify"), "the xev window is mapped", 15);
    WebElement canvas = b.driver.findElement(By.id("screen-canvas"));
    js(b, "arguments[0].scrollIntoView({block: 'start'});", canvas);
    @SuppressWarnings("unchecked")
    List<Number> box = (List<Number>) js(b, "const r = arguments[0].getBoundingClientRect();"
        + "return [r.left, r.top, r.width];", canvas);
    double scale = 1024.0 / box.get(2).doubleValue();
    // Viewport points of screen points: the canvas's box plus the screen point over the scale.
    java.util.function.IntUnaryOperator vx = sx -> (int) Math.round(box.get(0).doubleValue() + sx / scale);
    java.util.function.IntUnaryOperator vy = sy -> (int) Math.round(box.get(1).doubleValue() + sy / scale);
    // Screen 650,420 → 950,580, through two points between, the button held all the way.
    new Actions(b.driver).moveToLocation(vx.applyAsInt(650), vy.applyAsInt(420)).clickAndHold()
        .moveToLocation(vx.applyAsInt(750), vy.applyAsInt(470))
        .moveToLocation(vx.applyAsInt(850), vy.applyAsInt(520))
        .moveToLocation(vx.applyAsInt(950), vy.applyAsInt(580))
        .release().perform();
    awaitTrue(() -> RELEASE.matcher(read(events)).find(), "xev saw the button released", 10);
    String log = read(events);
    Matcher press = PRESS.matcher(log);
    assertThat(press.find()).isTrue();
    assertThat(Integer.parseInt(press.group(1))).isBetween(648, 652);
    assertThat(Integer.parseInt(press.group(2))).isBetween(418, 422);
    assertThat(press.group(3)).isEqualTo("1");
    Matcher release = RELEASE.matcher(log);
    assertThat(release.find(press.end())).as("released after the press").isTrue();
    assertThat(Integer.parseInt(release.group(1))).isBetween(948, 952);
    assertThat(Integer.parseInt(release.group(2))).isBetween(578, 582);
    // Between them the pointer moved with button 1 held (state 0x100): a drag, not a click and a jump.
    String between = log.substring(press.end(), release.start());
    Matcher moved = DRAGGED.matcher(between);
    List<Integer> xs = new ArrayList<>();
    while (moved.find()) {
      xs.add(Integer.parseInt(moved.group(1)));
    }
    assertThat(xs).as("motion with the button held").isNotEmpty().anyMatch(x -> x > 660 && x < 940);

    // A cancelled pointer (button -1, as browsers send it) lets go of the held button in the sandbox too.
    long pressed = PRESS.matcher(read(events)).results().count();
    long released = RELEASE.matcher(read(events)).results().count();
    new Actions(b.driver).moveToLocation(vx.applyAsInt(650), vy.applyAsInt(420)).clickAndHold()
        .moveToLocation(vx.applyAsInt(800), vy.applyAsInt(500)).perform();
    awaitTrue(() -> PRESS.matcher(read(events)).results().count() > pressed, "xev saw the second press", 10);
    js(b, "arguments[0].dispatchEvent(new PointerEvent('pointercancel', {pointerId: 1, button: -1, bubbles: true}));",
        canvas);
    awaitTrue(() -> RELEASE.matcher(read(events)).results().count() > released, "xev saw the cancel's release", 10);
    new Actions(b.driver).release().perform();
  }

  @Test
  @Order(7)
  void aPasteOnTheCanvasLandsInTheSandboxClipboardAndIsPastedThere(Browser b) throws Exception {
    openLive(b);
    Path events = xev("xev-paste.txt", "300x200+100+420", "keyboard", "structure");
    awaitTrue(() -> read(events).contains("MapNotify"), "the xev window is mapped", 15);
    // keys go to the window under the pointer
    assertThat(s.post("/api/sandboxes/" + id + "/act", "{\"verb\": \"move\", \"x\": 250, \"y\": 520}").status())
        .isEqualTo(200);
    String text = "pasted into the sandbox " + System.nanoTime();
    // What the browser fires on ctrl+v with the canvas focused (headless Chromium has no system clipboard to read).
    js(b, "const c = document.getElementById('screen-canvas'); c.focus();"
        + "const dt = new DataTransfer(); dt.setData('text/plain', arguments[0]);"
        + "c.dispatchEvent(new ClipboardEvent('paste', {clipboardData: dt, bubbles: true, cancelable: true}));", text);
    awaitTrue(() -> text.equals(xclip()), () -> "xclip -o on the sandbox's display reads the pasted text; it reads '"
        + xclip() + "'", 10);
    // and pasted where the pointer is: ctrl+v pressed in the sandbox after the clipboard was set
    awaitTrue(() -> keys(events).contains("v"), () -> "xev saw the paste's ctrl+v; it saw " + keys(events), 10);
    assertThat(keys(events)).containsSubsequence("Control_L", "v");
  }

  @Test
  @Order(8)
  void aWholeScreenChangeGoesAsOneJpegSmallerThanItsPngAndTheCanvasEndsExact(Browser b) throws Exception {
    openLive(b);
    Path photo = photoLike(dir.resolve("photo.png"), 1024, 640);
    String path = "/ws/sandboxes/" + id + "/screen";
    try (WsClient exact = s.ws(path + "?lossless=1"); WsClient lossy = s.ws(path)) {
      for (WsClient c : List.of(exact, lossy)) {
        c.await(m -> m.path("type").asText().equals("binary"), 15);
      }
      // ImageMagick's display sets the root window's background and exits (with status 1 on Xvfb,
      // whatever happened): the frames below are what tells.
      x("display", "-window", "root", photo.toString()).waitFor();
      // The lossy viewer: one jpeg for the change, then (the screen still) the runtime's png pieces of it.
      List<JsonNode> lossyHeads = new ArrayList<>();
      long lossyBytes = 0;
      while (true) {
        JsonNode m = lossy.await(n -> n.path("type").asText().equals("binary"), 15);
        JsonNode head = header(lossy.binaryMessage(m));
        if (!lossyHeads.isEmpty() && !hasJpeg(head)) {
          lossyHeads.add(head);
          break; // the exact refresh
        }
        if (hasJpeg(head)) {
          lossyBytes += m.get("bytes").asLong();
          lossyHeads.add(head);
        }
      }
      assertThat(lossyHeads.get(0).toString()).contains("\"format\":\"jpeg\"");
      JsonNode refresh = lossyHeads.get(lossyHeads.size() - 1);
      assertThat(refresh.path("tiles").size() + (refresh.has("image") ? 1 : 0)).as("the exact refresh " + refresh)
          .isPositive();
      // The exact viewer got the same change as png: every message until the lossy one's refresh came.
      long exactBytes = 0;
      for (int i = 0; i < 50; i++) {
        JsonNode m;
        try {
          m = exact.await(n -> n.path("type").asText().equals("binary"), 1);
        } catch (AssertionError quiet) {
          break;
        }
        assertThat(hasJpeg(header(exact.binaryMessage(m)))).isFalse();
        exactBytes += m.get("bytes").asLong();
      }
      assertThat(exactBytes).as("png bytes of the change").isGreaterThan(LargeChanges.MIN_BYTES);
      assertThat(lossyBytes).as("jpeg bytes against png " + exactBytes).isLessThan((long) (exactBytes * LargeChanges.MAX_RATIO));
    }
    // The browser drew it lossy first and ends with the display's exact pixels.
    awaitTrue(() -> ((Number) js(b, "return document.getElementById('screen-canvas').liveStats.lossy || 0;"))
        .intValue() >= 1, "the page drew a jpeg piece", 10);
    assertSameAsScreenshot(b);
  }

  /**
   * A picture like a photo: smooth colour waves with grain. Its png is large (the grain does not
   * compress), its jpeg small: what a page load or a photo viewer puts on a screen.
   */
  static Path photoLike(Path file, int w, int h) throws Exception {
    BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
    java.util.Random grain = new java.util.Random(7);
    for (int y = 0; y < h; y++) {
      for (int x = 0; x < w; x++) {
        int r = (int) (128 + 70 * Math.sin(x / 37.0) + 40 * Math.cos(y / 23.0)) + grain.nextInt(17) - 8;
        int g = (int) (128 + 60 * Math.sin((x + y) / 51.0) + 30 * Math.sin(y / 11.0)) + grain.nextInt(17) - 8;
        int bl = (int) (128 + 80 * Math.cos(x / 19.0 - y / 43.0)) + grain.nextInt(17) - 8;
        img.setRGB(x, y, clamp(r) << 16 | clamp(g) << 8 | clamp(bl));
      }
    }
    ImageIO.write(img, "png", file.toFile());
    return file;
  }

  private static int clamp(int v) {
    return Math.max(0, Math.min(255, v));
  }

  static JsonNode header(byte[] message) throws Exception {
    int len = java.nio.ByteBuffer.wrap(message, 0, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
    return dev.agentdesk.app.serve.Json.MAPPER.readTree(new String(message, 4, len, java.nio.charset.StandardCharsets.UTF_8));
  }

  static boolean hasJpeg(JsonNode head) {
    return head.toString().contains("\"format\":\"jpeg\"");
  }

  static String xclip() {
    try {
      ProcessBuilder pb = new ProcessBuilder("xclip", "-o", "-selection", "clipboard");
      pb.environment().put("DISPLAY", display.name());
      pb.redirectError(ProcessBuilder.Redirect.DISCARD);
      Process p = pb.start();
      String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      p.waitFor();
      return out;
    } catch (Exception e) {
      return "(" + e + ")";
    }
  }

  // ---- helpers ----

  static void openLive(Browser b) {
    b.open(s.page("#/sandboxes/" + id));
    b.awaitText(By.id("live-state"), "live", 20);
    awaitTrue(() -> ((Number) js(b, "return document.getElementById('screen-canvas').width;")).intValue() == 1024,
        "the first frame is drawn", 10);
  }

  static Process x(String... argv) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(argv);
    pb.environment().put("DISPLAY", display.name());
    pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
    return pb.start();
  }

  static Object js(Browser b, String script, Object... args) {
    return ((JavascriptExecutor) b.driver).executeScript(script, args);
  }

  /** The canvas pixel at x/y as 0xRRGGBB. */
  static int pixel(Browser b, int x, int y) {
    @SuppressWarnings("unchecked")
    List<Number> rgba = (List<Number>) js(b, "const c = document.getElementById('screen-canvas');"
        + "return Array.from(c.getContext('2d').getImageData(arguments[0], arguments[1], 1, 1).data);", x, y);
    return rgba.get(0).intValue() << 16 | rgba.get(1).intValue() << 8 | rgba.get(2).intValue();
  }

  static BufferedImage canvasImage(Browser b) throws Exception {
    String data = (String) js(b, "return document.getElementById('screen-canvas').toDataURL('image/png').split(',')[1];");
    return ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(data)));
  }

  static BufferedImage screenshot() throws Exception {
    HttpResponse<byte[]> png = s.http.send(s.request("/api/sandboxes/" + id + "/screenshot").build(),
        HttpResponse.BodyHandlers.ofByteArray());
    assertThat(png.statusCode()).isEqualTo(200);
    return ImageIO.read(new ByteArrayInputStream(png.body()));
  }

  /** The canvas equals a lossless runtime screenshot, every pixel (given a moment to catch up). */
  static void assertSameAsScreenshot(Browser b) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    long differing;
    do {
      BufferedImage shot = screenshot();
      BufferedImage drawn = canvasImage(b);
      assertThat(drawn.getWidth()).isEqualTo(shot.getWidth());
      assertThat(drawn.getHeight()).isEqualTo(shot.getHeight());
      differing = 0;
      for (int y = 0; y < shot.getHeight(); y++) {
        for (int x = 0; x < shot.getWidth(); x++) {
          if ((shot.getRGB(x, y) & 0xffffff) != (drawn.getRGB(x, y) & 0xffffff)) {
            differing++;
          }
        }
      }
      if (differing == 0) {
        return;
      }
      Thread.sleep(200);
    } while (System.nanoTime() < deadline);
    b.screenshot("live-view-mismatch");
    throw new AssertionError(differing + " pixels of the canvas differ from the runtime's screenshot");
  }

  static String treeText(Browser b) {
    return b.driver.findElement(By.id("a11y-tree")).getText();
  }

  /** Clicks the ref button on the tree line that contains {@code text} (found again if the tree re-rendered). */
  static void clickRef(Browser b, String text) {
    awaitTrue(() -> Boolean.TRUE.equals(js(b, "for (const l of document.querySelectorAll('#a11y-tree .a11y-line')) {"
        + " if (l.textContent.includes(arguments[0])) { l.querySelector('.a11y-ref').click(); return true; } }"
        + " return false;", text)), () -> "a tree line with " + text + " in:\n" + treeText(b), 10);
  }

  static List<int[]> presses(Path events) {
    List<int[]> out = new ArrayList<>();
    Matcher m = BUTTON.matcher(read(events));
    while (m.find()) {
      out.add(new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3))});
    }
    return out;
  }

  static void awaitPresses(Path events, int n) {
    awaitTrue(() -> presses(events).size() >= n, n + " button presses reached xev", 10);
  }

  /** An xev window at {@code geometry} on the sandbox's display, reporting {@code masks} into the returned file. */
  private Path xev(String file, String geometry, String... masks) throws IOException {
    Path events = dir.resolve(file);
    List<String> argv = new ArrayList<>(List.of("xev", "-geometry", geometry));
    for (String m : masks) {
      argv.addAll(List.of("-event", m));
    }
    ProcessBuilder pb = new ProcessBuilder(argv);
    pb.environment().put("DISPLAY", display.name());
    pb.redirectOutput(events.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD);
    clients.add(pb.start());
    return events;
  }

  static List<String> keys(Path events) {
    List<String> out = new ArrayList<>();
    Matcher m = KEY.matcher(read(events));
    while (m.find()) {
      if (!m.group(1).startsWith("Shift")) {
        out.add(m.group(1));
      }
    }
    return out;
  }

  static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (java.io.IOException e) {
      return "";
    }
  }

  static int handshakeStatus(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.net.http.WebSocketHandshakeException h) {
        return h.getResponse().statusCode();
      }
    }
    throw new AssertionError("not a refused handshake", e);
  }

  static void awaitTrue(BooleanSupplier condition, String what, int seconds) {
    awaitTrue(condition, () -> what, seconds);
  }

  static void awaitTrue(BooleanSupplier condition, java.util.function.Supplier<String> what, int seconds) {
    long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + seconds + " s waiting until " + what.get());
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }
}
