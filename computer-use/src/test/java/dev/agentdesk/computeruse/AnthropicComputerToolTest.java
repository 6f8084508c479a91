package dev.agentdesk.computeruse;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.aci.client.AciClient;
import dev.agentdesk.aci.wire.Action;
import dev.agentdesk.aci.wire.ImageFormat;
import dev.agentdesk.aci.wire.ObserveSpec;
import dev.agentdesk.aci.wire.Target;
import dev.agentdesk.computeruse.AnthropicComputerTool.Version;
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
 * Recorded Anthropic computer-use tool calls (test resource toolcalls/anthropic.jsonl) against the
 * real runtime on a real 640x400 Xvfb, declared as a 320x200 display: what reached a real xterm
 * (key bytes, SGR mouse reports) and the screenshots that came back.
 */
@ExtendWith(XvfbExtension.class)
@XvfbConfig(width = 640, height = 400)
class AnthropicComputerToolTest {
  private static final RecordedCalls CALLS = new RecordedCalls("/toolcalls/anthropic.jsonl", "id");

  @TempDir
  static Path dir;

  private static Desk desk;
  private static AciClient client;
  private static XtermProbe xterm;
  private static AnthropicComputerTool tool;

  @BeforeAll
  static void start(XDisplay display) throws Exception {
    desk = Desk.start(display.name(), dir);
    client = desk.client;
    xterm = desk.xterm;
    tool = AnthropicComputerTool.create(client, Version.COMPUTER_20251124, new DisplaySize(320, 200));
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

  private static ToolResult call(String id) {
    return tool.call(CALLS.get(id));
  }

  private static String image(ToolResult r) {
    assertThat(r.ok()).as(String.valueOf(r.error())).isTrue();
    JsonNode block = r.json().path("content").get(0);
    assertThat(block.path("type").asText()).isEqualTo("image");
    assertThat(block.path("source").path("media_type").asText()).isEqualTo("image/png");
    return block.path("source").path("data").asText();
  }

  private static String keys(String id, int bytes) throws Exception {
    xterm.clear();
    image(call(id));
    return xterm.awaitSince(bytes, Desk.WAIT);
  }

  @Test
  void screenshotsAreScaledToTheDeclaredDisplay() throws Exception {
    ToolResult r = call("toolu_shot");
    assertThat(r.json().path("type").asText()).isEqualTo("tool_result");
    assertThat(r.json().path("tool_use_id").asText()).isEqualTo("toolu_shot");
    BufferedImage shot = RuntimeFixture.decode(image(r));
    assertThat(shot.getWidth()).isEqualTo(320);
    assertThat(shot.getHeight()).isEqualTo(200);
    // The same pixels as the runtime's own 320 px downscale: the adapter passed them through.
    BufferedImage direct = RuntimeFixture.decode(
        client.screenshot(new ObserveSpec(null, ImageFormat.PNG, null, 320)).image());
    assertThat(Desk.rgb(shot)).isEqualTo(Desk.rgb(direct));
  }

  @Test
  void coordinatesMapThroughTheCoordinateSpace() throws Exception {
    image(call("toolu_move"));
    // Model (100, 50) on a 320x200 image of a 640x400 screen is screen pixel (201, 101).
    assertThat(client.screenshot(RuntimeFixture.FULL_PNG).observation().pointer().x()).isEqualTo(201);
    assertThat(client.screenshot(RuntimeFixture.FULL_PNG).observation().pointer().y()).isEqualTo(101);
    ToolResult where = call("toolu_where");
    assertThat(where.json().path("content").get(0).path("text").asText()).isEqualTo("X=100,Y=50");
  }

  @Test
  void clicksReachTheApplicationWhereADirectClickAtTheMappedPixelWould() throws Exception {
    client.click(new Target.PointPx(61, 41));
    List<String> direct = Desk.reports(xterm.awaitSince(12, Desk.WAIT));
    assertThat(direct).hasSize(2);
    xterm.clear();
    image(call("toolu_click"));
    assertThat(Desk.reports(xterm.awaitSince(12, Desk.WAIT))).isEqualTo(direct);
    String cell = direct.get(0).substring(direct.get(0).indexOf(';'), direct.get(0).length() - 1);

    xterm.clear();
    image(call("toolu_right"));
    assertThat(Desk.reports(xterm.awaitSince(12, Desk.WAIT))).containsExactly("2" + cell + "M", "2" + cell + "m");
    xterm.clear();
    image(call("toolu_middle"));
    assertThat(Desk.reports(xterm.awaitSince(12, Desk.WAIT))).containsExactly("1" + cell + "M", "1" + cell + "m");
    xterm.clear();
    image(call("toolu_double"));
    assertThat(Desk.reports(xterm.awaitSince(24, Desk.WAIT))).containsExactly("0" + cell + "M", "0" + cell + "m",
        "0" + cell + "M", "0" + cell + "m");
    xterm.clear();
    image(call("toolu_triple"));
    assertThat(Desk.reports(xterm.awaitSince(36, Desk.WAIT))).hasSize(6).allMatch(s -> s.startsWith("0" + cell));
  }

  @Test
  void scrollSendsOneWheelClickPerStepInTheGivenDirection() throws Exception {
    image(call("toolu_scroll_down"));
    List<String> down = Desk.reports(xterm.awaitSince(20, Desk.WAIT));
    assertThat(down).hasSize(2).allMatch(s -> s.startsWith("65;"));
    xterm.clear();
    image(call("toolu_scroll_up"));
    assertThat(Desk.reports(xterm.awaitSince(10, Desk.WAIT))).hasSize(1).allMatch(s -> s.startsWith("64;"));
  }

  @Test
  void dragsPressAtTheStartMoveAndReleaseAtTheEnd() throws Exception {
    client.click(new Target.PointPx(121, 61));
    String endCell = Desk.reports(xterm.awaitSince(12, Desk.WAIT)).get(0).substring(1);
    client.click(new Target.PointPx(21, 21));
    String startCell = Desk.reports(xterm.awaitSince(24, Desk.WAIT)).get(2).substring(1);
    xterm.clear();
    image(call("toolu_drag"));
    List<String> drag = Desk.reports(xterm.awaitSince(24, Desk.WAIT));
    assertThat(drag.get(0)).isEqualTo("0" + startCell);
    assertThat(drag.get(drag.size() - 1)).isEqualTo("0" + endCell.substring(0, endCell.length() - 1) + "m");
    assertThat(drag.subList(1, drag.size() - 1)).isNotEmpty().allMatch(s -> s.startsWith("32;"));
    xterm.clear();
    image(call("toolu_down"));
    image(call("toolu_up"));
    List<String> lowLevel = Desk.reports(xterm.awaitSince(24, Desk.WAIT));
    assertThat(lowLevel.get(0)).startsWith("0;").endsWith("M");
    assertThat(lowLevel.get(lowLevel.size() - 1)).startsWith("0;").endsWith("m");
  }

  @Test
  void xdotoolKeyNamesBecomeTheKeysAnXApplicationReceives() throws Exception {
    assertThat(keys("toolu_type", 11)).isEqualTo("hello world");
    assertThat(keys("toolu_return", 1)).isEqualTo("\r");
    assertThat(keys("toolu_ctrl_a", 1)).isEqualTo("\u0001");
    assertThat(keys("toolu_tab", 1)).isEqualTo("\t");
    assertThat(keys("toolu_escape", 1)).isEqualTo("\033");
    assertThat(keys("toolu_pgdn", 4)).isEqualTo("\033[6~");
    assertThat(keys("toolu_prior", 4)).isEqualTo("\033[5~");
    assertThat(keys("toolu_f5", 5)).isEqualTo("\033[15~");
    assertThat(keys("toolu_exclam", 1)).isEqualTo("!");
    assertThat(keys("toolu_shift_a", 1)).isEqualTo("A");
    assertThat(keys("toolu_sequence", 5)).isEqualTo("\u0001\033[3~");
    assertThat(keys("toolu_minus_space", 2)).isEqualTo("- ");
  }

  @Test
  void waitAndZoomAnswerWithImages() throws Exception {
    long t0 = System.nanoTime();
    BufferedImage after = RuntimeFixture.decode(image(call("toolu_wait")));
    assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(Duration.ofMillis(200).toNanos());
    assertThat(after.getWidth()).isEqualTo(320);
    // The top-left quarter of the model's display is screen pixels 0..319 x 0..199, at full resolution.
    BufferedImage zoom = RuntimeFixture.decode(image(call("toolu_zoom")));
    assertThat(zoom.getWidth()).isEqualTo(320);
    assertThat(zoom.getHeight()).isEqualTo(200);
    BufferedImage full = RuntimeFixture.decode(client.screenshot(RuntimeFixture.FULL_PNG).image());
    assertThat(Desk.rgb(zoom)).isEqualTo(Desk.rgb(full.getSubimage(0, 0, 320, 200)));
    AnthropicComputerTool older = AnthropicComputerTool.create(client, Version.COMPUTER_20250124,
        new DisplaySize(320, 200));
    ToolResult refused = older.call(CALLS.get("toolu_zoom"));
    assertThat(refused.error()).isEqualTo("zoom is an action of computer_20251124, not of computer_20250124");
  }

  @Test
  void badCallsAreErrorResultsAndSendNothing() throws Exception {
    assertError("toolu_off_screen", "left_click: coordinate [320,20] is outside the 320x200 display");
    assertError("toolu_bad_key", "unknown key name \"Hyperspace\" (xdotool keysym names such as Return, "
        + "Page_Down, KP_0, F5, ctrl, alt, super)");
    assertError("toolu_hold", "hold_key cannot be done over ACI v0: its key verb presses and releases, it cannot "
        + "hold a key down; use key for a press");
    assertError("toolu_shift_click", "left_click with keys held (text: \"shift\") cannot be done over ACI v0: its "
        + "key verb presses and releases, it cannot hold a key");
    assertError("toolu_no_coordinate", "mouse_move needs coordinate");
    assertError("toolu_teleport", "unknown action \"teleport\" for computer_20251124");
    assertError("toolu_bash", "not a computer tool call (name: bash)");
    xterm.await(0, Duration.ofMillis(300));
    assertThat(xterm.since()).isEmpty();
  }

  private static void assertError(String id, String message) {
    ToolResult r = call(id);
    assertThat(r.error()).isEqualTo(message);
    assertThat(r.json().path("is_error").asBoolean()).isTrue();
    assertThat(r.json().path("tool_use_id").asText()).isEqualTo(id);
    assertThat(r.json().path("content").get(0).path("text").asText()).isEqualTo(message);
  }

  @Test
  void aDeclaredSizeOfAnotherAspectRatioIsResizedAndMappedPerAxis() throws Exception {
    AnthropicComputerTool wide = AnthropicComputerTool.create(client, Version.COMPUTER_20251124,
        new DisplaySize(300, 200));
    BufferedImage shot = RuntimeFixture.decode(image(wide.call(CALLS.get("toolu_shot"))));
    assertThat(shot.getWidth()).isEqualTo(300);
    assertThat(shot.getHeight()).isEqualTo(200);
    wide.call(CALLS.get("toolu_move"));
    // x: (100.5 * 640 / 300) - 0.5 = 213.9 -> 214; y: (50.5 * 2) - 0.5 = 100.5 -> 101.
    assertThat(client.screenshot(RuntimeFixture.FULL_PNG).observation().pointer().x()).isEqualTo(214);
    assertThat(wide.call(CALLS.get("toolu_where")).json().path("content").get(0).path("text").asText())
        .isEqualTo("X=100,Y=50");
  }

}
