package dev.agentdesk.computeruse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.aci.client.AciClient;
import dev.agentdesk.aci.wire.ImageFormat;
import dev.agentdesk.aci.wire.ObserveSpec;
import dev.agentdesk.aci.wire.Target;
import dev.agentdesk.testkit.XDisplay;
import dev.agentdesk.testkit.XvfbConfig;
import dev.agentdesk.testkit.XvfbExtension;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recorded OpenAI computer_call items (test resource toolcalls/openai.jsonl) against the real
 * runtime on a real 640x400 Xvfb, declared as a 320x200 display, observed through a real xterm.
 */
@ExtendWith(XvfbExtension.class)
@XvfbConfig(width = 640, height = 400)
class OpenAiComputerToolTest {
  private static final RecordedCalls CALLS = new RecordedCalls("/toolcalls/openai.jsonl", "call_id");

  @TempDir
  static Path dir;

  private static Desk desk;
  private static AciClient client;
  private static XtermProbe xterm;
  private static OpenAiComputerTool tool;

  @BeforeAll
  static void start(XDisplay display) throws Exception {
    desk = Desk.start(display.name(), dir);
    client = desk.client;
    xterm = desk.xterm;
    tool = OpenAiComputerTool.create(client, new DisplaySize(320, 200));
  }

  @AfterAll
  static void stop() {
    if (desk != null) {
      desk.close();
    }
  }

  @BeforeEach
  void pointerIntoTheTerminal() throws Exception {
    desk.pointerIntoTheTerminal();
  }

  private static BufferedImage screenshotOf(ToolResult r) throws Exception {
    assertThat(r.ok()).as(String.valueOf(r.error())).isTrue();
    assertThat(r.json().path("type").asText()).isEqualTo("computer_call_output");
    String url = r.json().path("output").path("image_url").asText();
    assertThat(r.json().path("output").path("type").asText()).isEqualTo("input_image");
    assertThat(url).startsWith("data:image/png;base64,");
    return RuntimeFixture.decode(url.substring("data:image/png;base64,".length()));
  }

  private static ToolResult call(String id) {
    ToolResult r = tool.call(CALLS.get(id));
    if (r.ok()) {
      assertThat(r.json().path("call_id").asText()).isEqualTo(id);
    }
    return r;
  }

  private static String keys(String id, int bytes) throws Exception {
    xterm.clear();
    screenshotOf(call(id));
    return xterm.awaitSince(bytes, Desk.WAIT);
  }

  @Test
  void everyActionAnswersWithAScreenshotOfTheDeclaredSize() throws Exception {
    BufferedImage shot = screenshotOf(call("call_shot"));
    assertThat(shot.getWidth()).isEqualTo(320);
    assertThat(shot.getHeight()).isEqualTo(200);
    BufferedImage direct = RuntimeFixture.decode(
        client.screenshot(new ObserveSpec(null, ImageFormat.PNG, null, 320)).image());
    assertThat(Desk.rgb(shot)).isEqualTo(Desk.rgb(direct));
    screenshotOf(call("call_move"));
    assertThat(client.screenshot(RuntimeFixture.FULL_PNG).observation().pointer().x()).isEqualTo(201);
    long t0 = System.nanoTime();
    screenshotOf(call("call_wait"));
    assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(Duration.ofMillis(OpenAiComputerTool.WAIT_MS).toNanos());
  }

  @Test
  void clicksScrollsAndDragsReachTheApplication() throws Exception {
    client.click(new Target.PointPx(61, 41));
    List<String> direct = Desk.reports(xterm.awaitSince(12, Desk.WAIT));
    String cell = direct.get(0).substring(direct.get(0).indexOf(';'), direct.get(0).length() - 1);
    xterm.clear();
    screenshotOf(call("call_click"));
    assertThat(Desk.reports(xterm.awaitSince(12, Desk.WAIT))).isEqualTo(direct);
    xterm.clear();
    screenshotOf(call("call_right"));
    assertThat(Desk.reports(xterm.awaitSince(12, Desk.WAIT))).containsExactly("2" + cell + "M", "2" + cell + "m");
    xterm.clear();
    screenshotOf(call("call_wheel"));
    assertThat(Desk.reports(xterm.awaitSince(12, Desk.WAIT))).containsExactly("1" + cell + "M", "1" + cell + "m");
    xterm.clear();
    screenshotOf(call("call_double"));
    assertThat(Desk.reports(xterm.awaitSince(24, Desk.WAIT))).hasSize(4);
    xterm.clear();
    screenshotOf(call("call_scroll"));
    assertThat(Desk.reports(xterm.awaitSince(20, Desk.WAIT))).hasSize(2).allMatch(s -> s.startsWith("65;"));
    xterm.clear();
    screenshotOf(call("call_drag"));
    List<String> drag = Desk.reports(xterm.awaitSince(30, Desk.WAIT));
    assertThat(drag.get(0)).startsWith("0;").endsWith("M");
    assertThat(drag.subList(1, drag.size() - 1)).hasSizeGreaterThanOrEqualTo(2).allMatch(s -> s.startsWith("32;"));
    assertThat(drag.get(drag.size() - 1)).startsWith("0;").endsWith("m");
  }

  @Test
  void keypressNamesBecomeTheKeysAnXApplicationReceives() throws Exception {
    assertThat(keys("call_type", 8)).isEqualTo("hi there");
    assertThat(keys("call_enter", 1)).isEqualTo("\r");
    assertThat(keys("call_ctrl_c", 1)).isEqualTo("\u0003");
    assertThat(keys("call_arrow", 3)).isEqualTo("\033[B");
    // A GA-style call with a list of actions: all run, one screenshot at the end.
    assertThat(keys("call_batch", 3)).isEqualTo("ab\033");
  }

  @Test
  void badCallsAreErrorsAndSendNothing() throws Exception {
    assertThat(call("call_back").error())
        .isEqualTo("click with the back button cannot be done over ACI v0 (its buttons are left, middle, right)");
    assertThat(call("call_short_path").error()).isEqualTo("drag: path needs at least 2 points, got 1");
    assertThat(call("call_two_keys").error())
        .isEqualTo("ACI presses one key per combo, with any modifiers held: A+B names 2 keys (a, b)");
    assertThat(call("call_off").error()).isEqualTo("move: x, y {x: -1, y: 20} is outside the 320x200 display");
    assertThat(call("call_back").json()).isNull();
    xterm.await(0, Duration.ofMillis(300));
    assertThat(xterm.since()).isEmpty();
  }
}
