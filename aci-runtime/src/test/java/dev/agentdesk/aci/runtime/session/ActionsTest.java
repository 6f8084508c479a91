package dev.agentdesk.aci.runtime.session;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.aci.runtime.x11.Ext;
import dev.agentdesk.aci.runtime.x11.TestWindows;
import dev.agentdesk.testkit.XvfbExtension;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Input, screenshots, clipboard, launch and windows through the protocol; effects read from outside. */
@ExtendWith(XvfbExtension.class)
class ActionsTest {
  static final String TOKEN = "t0ken";
  @RegisterExtension
  static final RuntimeOnXvfb RT = RuntimeOnXvfb.withToken(TOKEN);

  private static String px(int x, int y) {
    return "{\"kind\":\"point_px\",\"x\":" + x + ",\"y\":" + y + "}";
  }

  private static void ok(JsonNode reply, String callId) {
    assertThat(reply.path("type").asText()).as("%s", reply).isEqualTo("ack");
    assertThat(reply.path("call_id").asText()).isEqualTo(callId);
    assertThat(reply.path("ok").asBoolean()).as("%s", reply).isTrue();
  }

  @Test
  void pointerVerbsLandWhereXdotoolSeesThem() throws Exception {
    try (WireClient c = WireClient.authenticated(RT.runtime().port(), TOKEN)) {
      ok(c.act("m1", "{\"verb\":\"move\",\"target\":" + px(321, 123) + "}"), "m1");
      assertThat(Ext.mouse(RT.display())).containsExactly(321, 123);
      ok(c.act("c1", "{\"verb\":\"click\",\"target\":" + px(50, 60) + "}"), "c1");
      assertThat(Ext.mouse(RT.display())).containsExactly(50, 60);
      ok(c.act("c2", "{\"verb\":\"double_click\",\"target\":{\"kind\":\"point_norm\",\"x\":1,\"y\":1}}"), "c2");
      assertThat(Ext.mouse(RT.display())).containsExactly(1279, 799);
      ok(c.act("c3", "{\"verb\":\"right_click\",\"target\":{\"kind\":\"point_norm\",\"x\":0.5,\"y\":0}}"), "c3");
      assertThat(Ext.mouse(RT.display())).containsExactly(640, 0);
      ok(c.act("d1", "{\"verb\":\"drag\",\"target\":" + px(10, 10) + ",\"to\":" + px(400, 300)
          + ",\"duration_ms\":100,\"button\":\"left\"}"), "d1");
      assertThat(Ext.mouse(RT.display())).containsExactly(400, 300);
      ok(c.act("md", "{\"verb\":\"mouse_down\",\"target\":" + px(200, 200) + ",\"button\":\"middle\"}"), "md");
      ok(c.act("mu", "{\"verb\":\"mouse_up\",\"button\":\"middle\"}"), "mu");
      assertThat(Ext.mouse(RT.display())).containsExactly(200, 200);
      ok(c.act("s1", "{\"verb\":\"scroll\",\"target\":" + px(700, 700) + ",\"dy\":-300,\"dx\":120}"), "s1");
      assertThat(Ext.mouse(RT.display())).containsExactly(700, 700);
      ok(c.act("k1", "{\"verb\":\"key\",\"keys\":\"ctrl+shift+t\"}"), "k1");
      ok(c.act("w1", "{\"verb\":\"wait\",\"ms\":30}"), "w1");

      JsonNode out = c.act("e1", "{\"verb\":\"click\",\"target\":" + px(1280, 5) + "}");
      assertThat(out.path("error").asText())
          .isEqualTo("point_px out of range: (1280, 5) — must be within [0, 1280) x [0, 800)");
      JsonNode norm = c.act("e2", "{\"verb\":\"click\",\"target\":{\"kind\":\"point_norm\",\"x\":1.5,\"y\":0}}");
      assertThat(norm.path("error").asText()).isEqualTo("point_norm out of range: (1.5, 0) — must be within [0, 1]");
      JsonNode zero = c.act("e3", "{\"verb\":\"scroll\",\"target\":" + px(5, 5) + "}");
      assertThat(zero.path("error").asText()).isEqualTo("scroll requires a nonzero dx or dy");
      JsonNode button = c.act("e4", "{\"verb\":\"mouse_down\",\"button\":\"Left\"}");
      assertThat(button.path("error").asText())
          .isEqualTo("unknown pointer button: \"Left\" (expected left, middle, or right)");
      JsonNode combo = c.act("e5", "{\"verb\":\"key\",\"keys\":\"hyper+x\"}");
      assertThat(combo.path("error").asText()).isEqualTo("unknown modifier \"hyper\"");
      JsonNode ctl = c.act("e6", "{\"verb\":\"type_text\",\"text\":\"a\\u0007\"}");
      assertThat(ctl.path("error").asText()).isEqualTo("cannot type char '\\u{7}'");
      JsonNode elem = c.act("e7", "{\"verb\":\"click\",\"target\":{\"kind\":\"element_ref\",\"ref\":\"e1\"}}");
      assertThat(elem.path("error").asText()).startsWith("stale_element_ref: ");
      c.assertAlive();
    }
  }

  @Test
  void screenshotsDecodeToTheRightPixelsForEveryFormatAndScope() throws Exception {
    try (WireClient c = WireClient.authenticated(RT.runtime().port(), TOKEN);
        TestWindows windows = new TestWindows(RT.display())) {
      long red = windows.create(100, 50, 200, 120, 0xFF0000, "red", "Red", null);
      windows.patch(red, 20, 30, 10, 10, 0x0000FF);
      try {
        c.act("mv", "{\"verb\":\"move\",\"target\":" + px(5, 6) + "}");
        for (String fmt : new String[] {"png", "jpeg"}) {
          JsonNode screen = c.act("s-" + fmt, "{\"verb\":\"screenshot\",\"format\":\"" + fmt + "\"}");
          assertThat(screen.path("obs_id").asText()).isEqualTo("obs-s-" + fmt);
          assertThat(screen.path("cause").asText()).isEqualTo("s-" + fmt);
          assertThat(screen.path("pointer").toString()).isEqualTo("[5,6]");
          assertThat(screen.at("/image/format").asText()).isEqualTo(fmt);
          assertThat(screen.path("frame_hash").asText()).matches("[0-9a-f]{32}");
          assertThat(screen.path("display").toString()).isEqualTo("{\"origin\":\"top-left\",\"w\":1280,\"h\":800,"
              + "\"dpr\":1,\"source_rect\":{\"x\":0,\"y\":0,\"w\":1280,\"h\":800},\"delivered\":{\"w\":1280,\"h\":800}}");
          BufferedImage img = decode(screen);
          int tol = fmt.equals("png") ? 0 : 40;
          assertColour(img, 150, 100, 0xFF0000, tol);
          assertColour(img, 125, 85, 0x0000FF, tol);
          assertColour(img, 90, 40, 0x000000, tol);
          if (fmt.equals("png")) {
            assertColour(img, 100, 50, 0xFF0000, 0);
            assertColour(img, 99, 50, 0x000000, 0);
            assertColour(img, 120, 80, 0x0000FF, 0);
          }
          JsonNode win = c.act("w-" + fmt, "{\"verb\":\"screenshot\",\"scope\":\"window:0x" + Long.toHexString(red)
              + "\",\"format\":\"" + fmt + "\"}");
          assertThat(win.at("/image/w").asInt()).isEqualTo(200);
          assertThat(win.at("/image/h").asInt()).isEqualTo(120);
          assertThat(win.at("/display/source_rect").toString()).isEqualTo("{\"x\":100,\"y\":50,\"w\":200,\"h\":120}");
          BufferedImage wimg = decode(win);
          assertColour(wimg, 2, 2, 0xFF0000, tol);
          assertColour(wimg, 25, 35, 0x0000FF, tol);
        }
        // active_window: focus the red window from outside, then capture the active one
        Ext.run(RT.display(), "xdotool", "windowfocus", "--sync", Long.toString(red));
        JsonNode active = c.act("a1", "{\"verb\":\"screenshot\",\"scope\":\"active_window\"}");
        assertThat(active.at("/image/w").asInt()).isEqualTo(200);
        assertThat(active.at("/image/scope").asText()).isEqualTo("active_window");
        assertColour(decode(active), 25, 35, 0x0000FF, 0);
        // downscale to the documented size
        JsonNode small = c.act("ds", "{\"verb\":\"screenshot\",\"max_long_edge\":640}");
        assertThat(small.at("/image/w").asInt()).isEqualTo(640);
        assertThat(small.at("/image/h").asInt()).isEqualTo(400);
        assertThat(small.at("/display/delivered").toString()).isEqualTo("{\"w\":640,\"h\":400}");
        BufferedImage simg = decode(small);
        assertThat(simg.getWidth()).isEqualTo(640);
        assertColour(simg, 75, 50, 0xFF0000, 0);
        // bad scopes and formats
        JsonNode missing = c.act("b1", "{\"verb\":\"screenshot\",\"scope\":\"window:0x7ffffff0\"}");
        assertThat(missing.path("error").asText()).isEqualTo("capture failed: window 0x7ffffff0 not found");
        JsonNode bad = c.act("b2", "{\"verb\":\"screenshot\",\"scope\":\"region\"}");
        assertThat(bad.path("error").asText()).isEqualTo("invalid capture scope: region");
        JsonNode big = c.act("b3", "{\"verb\":\"screenshot\",\"scope\":\"window:0x1ffffffff\"}");
        assertThat(big.path("error").asText()).isEqualTo("invalid capture scope: window:0x1ffffffff");
        JsonNode webp = c.act("b4", "{\"verb\":\"screenshot\",\"format\":\"webp\"}");
        assertThat(webp.path("error").asText()).isEqualTo("unsupported image format: \"webp\" (expected png or jpeg)");
        JsonNode q = c.act("b5", "{\"verb\":\"screenshot\",\"format\":\"jpeg\",\"quality\":101}");
        assertThat(q.path("error").asText()).isEqualTo("quality out of range 1-100: 101");
      } finally {
        windows.destroy(red);
      }
    }
  }

  @Test
  void sameScreenGivesSameHashAndNotModifiedUntilItChanges() throws Exception {
    try (WireClient c = WireClient.authenticated(RT.runtime().port(), TOKEN);
        TestWindows windows = new TestWindows(RT.display())) {
      JsonNode first = c.act("h1", "{\"verb\":\"screenshot\"}");
      String hash = first.path("frame_hash").asText();
      JsonNode second = c.act("h2", "{\"verb\":\"screenshot\",\"format\":\"jpeg\"}");
      assertThat(second.path("frame_hash").asText()).as("codec-independent").isEqualTo(hash);
      JsonNode again = c.act("h2b", "{\"verb\":\"screenshot\"}");
      assertThat(again.at("/image/ref").asText()).as("same frame, same codec: same bytes")
          .isEqualTo(first.at("/image/ref").asText());
      JsonNode nm = c.act("h3", "{\"verb\":\"screenshot\",\"if_none_match\":\"" + hash + "\"}");
      assertThat(nm.path("not_modified").asBoolean()).isTrue();
      assertThat(nm.path("frame_hash").asText()).isEqualTo(hash);
      assertThat(nm.path("cause").asText()).isEqualTo("h3");
      assertThat(nm.has("image")).isFalse();
      assertThat(nm.has("pointer")).isTrue();
      long w = windows.create(900, 600, 30, 30, 0x00FF00, "change", "Change", null);
      try {
        JsonNode changed = c.act("h4", "{\"verb\":\"screenshot\",\"if_none_match\":\"" + hash + "\"}");
        assertThat(changed.has("not_modified")).isFalse();
        assertThat(changed.path("frame_hash").asText()).isNotEqualTo(hash);
        assertThat(changed.at("/image/ref").asText()).isNotEmpty()
            .isNotEqualTo(first.at("/image/ref").asText());
        ActionsTest.assertColour(decode(changed), 910, 610, 0x00FF00, 0);
      } finally {
        windows.destroy(w);
      }
      JsonNode back = c.act("h5", "{\"verb\":\"screenshot\",\"if_none_match\":\"" + hash + "\"}");
      assertThat(back.path("not_modified").asBoolean()).isTrue();
    }
  }

  @Test
  void clipboardRoundTripsWithXclip() throws Exception {
    try (WireClient c = WireClient.authenticated(RT.runtime().port(), TOKEN)) {
      ok(c.act("cs", "{\"verb\":\"clipboard_set\",\"text\":\"grüße ☃ 日本\"}"), "cs");
      assertThat(Ext.run(RT.display(), "xclip", "-selection", "clipboard", "-o")).isEqualTo("grüße ☃ 日本");
      JsonNode got = c.act("cg", "{\"verb\":\"clipboard_get\"}");
      assertThat(got.path("type").asText()).isEqualTo("result");
      assertThat(got.path("value").toString()).isEqualTo("{\"text\":\"grüße ☃ 日本\"}");
      JsonNode tooBig = c.act("cb", "{\"verb\":\"clipboard_set\",\"text\":\"" + "y".repeat((1 << 20) + 5) + "\"}");
      assertThat(tooBig.path("error").asText()).isEqualTo("clipboard_set text too large: 1048581 bytes (cap 1048576)");
      c.assertAlive();
    }
  }

  @Test
  void launchAppStartsARealWindowThatActivateWindowFocuses() throws Exception {
    try (WireClient c = WireClient.authenticated(RT.runtime().port(), TOKEN)) {
      ok(c.act("l1", "{\"verb\":\"launch_app\",\"app\":\"xmessage\",\"args\":[\"-title\",\"agentdesk launched\","
          + "\"-geometry\",\"+300+300\",\"hello from launch_app\"]}"), "l1");
      long id = 0;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (id == 0 && System.nanoTime() < deadline) {
        for (JsonNode w : c.query("lw", "list_windows").path("value")) {
          if (w.path("title").asText().equals("agentdesk launched")) {
            id = w.path("id").asLong();
          }
        }
        Thread.sleep(50);
      }
      assertThat(id).as("launched window").isNotZero();
      try {
        ok(c.act("a1", "{\"verb\":\"activate_window\",\"app\":\"AGENTDESK LAUNCHED\"}"), "a1");
        assertThat(Long.parseLong(Ext.run(RT.display(), "xdotool", "getwindowfocus").trim())).isEqualTo(id);
        ok(c.act("a2", "{\"verb\":\"activate_window\",\"window_id\":" + id + "}"), "a2");
        JsonNode none = c.act("a3", "{\"verb\":\"activate_window\",\"app\":\"no such title\"}");
        assertThat(none.path("error").asText()).startsWith("activate_window: no window title matches app \"no such title\" (of ");
        JsonNode gone = c.act("a4", "{\"verb\":\"activate_window\",\"window_id\":42}");
        assertThat(gone.path("error").asText()).isEqualTo("activate_window: window 0x2a not found");
      } finally {
        Ext.run(RT.display(), "xdotool", "windowkill", Long.toString(id));
      }
      JsonNode missing = c.act("l2", "{\"verb\":\"launch_app\",\"app\":\"no-such-app-xyz\"}");
      assertThat(missing.path("error").asText()).startsWith("launch_app: failed to spawn \"no-such-app-xyz\"");
      JsonNode empty = c.act("l3", "{\"verb\":\"launch_app\",\"app\":\"\"}");
      assertThat(empty.path("error").asText()).isEqualTo("launch_app requires a non-empty `app`");
      c.assertAlive();
    }
  }

  @Test
  void unicodeTypingKeyCombosAndAClickDriveARealZenityDialog() throws Exception {
    Process zenity = Ext.start(RT.display(), "zenity", "--entry", "--title=protocol-entry", "--text=type here");
    try (WireClient c = WireClient.authenticated(RT.runtime().port(), TOKEN)) {
      JsonNode dialog = null;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
      while (dialog == null && System.nanoTime() < deadline) {
        for (JsonNode w : c.query("lw", "list_windows").path("value")) {
          if (w.path("title").asText().equals("protocol-entry") && w.path("w").asInt() > 50) {
            dialog = w;
          }
        }
        Thread.sleep(50);
      }
      assertThat(dialog).as("zenity dialog").isNotNull();
      Thread.sleep(500); // first paint
      int x = dialog.path("x").asInt();
      int y = dialog.path("y").asInt();
      int w = dialog.path("w").asInt();
      int h = dialog.path("h").asInt();
      ok(c.act("f", "{\"verb\":\"click\",\"target\":" + px(x + w / 2, y + 52) + "}"), "f");
      Thread.sleep(200);
      ok(c.act("t0", "{\"verb\":\"type_text\",\"text\":\"discard me\"}"), "t0");
      ok(c.act("k0", "{\"verb\":\"key\",\"keys\":\"ctrl+a\"}"), "k0");
      ok(c.act("t1", "{\"verb\":\"type_text\",\"text\":\"héllo wörld — ☃ 日本!\"}"), "t1");
      ok(c.act("k1", "{\"verb\":\"key\",\"keys\":\"BackSpace\"}"), "k1");
      Thread.sleep(300);
      ok(c.act("ok", "{\"verb\":\"click\",\"target\":" + px(x + w - 51, y + h - 25) + "}"), "ok");
      assertThat(zenity.waitFor(10, TimeUnit.SECONDS)).as("dialog closed by the click").isTrue();
      assertThat(new String(zenity.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8))
          .isEqualTo("héllo wörld — ☃ 日本\n");
    } finally {
      zenity.destroyForcibly();
    }
  }

  static BufferedImage decode(JsonNode obs) throws Exception {
    byte[] bytes = Base64.getDecoder().decode(obs.at("/image/ref").asText());
    return ImageIO.read(new ByteArrayInputStream(bytes));
  }

  static void assertColour(BufferedImage img, int x, int y, int rgb, int tolerance) {
    int got = img.getRGB(x, y) & 0xFFFFFF;
    for (int shift = 0; shift <= 16; shift += 8) {
      assertThat(Math.abs(((got >> shift) & 0xFF) - ((rgb >> shift) & 0xFF)))
          .as("pixel (%d,%d) = %06x, expected %06x", x, y, got, rgb).isLessThanOrEqualTo(tolerance);
    }
  }
}
