package dev.agentdesk.aci.runtime.session;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.aci.client.StreamCompositor;
import dev.agentdesk.aci.runtime.x11.TestWindows;
import dev.agentdesk.aci.wire.ObservationMsg;
import dev.agentdesk.aci.wire.WireCodec;
import dev.agentdesk.testkit.XvfbConfig;
import dev.agentdesk.testkit.XvfbExtension;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Screencasts on a real Xvfb: every pushed message is checked against the schema by
 * {@link WireClient}; the screen is changed by a separate X client and the frames the client
 * rebuilds are compared with a lossless screenshot taken on a second connection.
 */
@ExtendWith(XvfbExtension.class)
@XvfbConfig(width = 320, height = 200)
class ScreencastProtocolTest {
  static final String TOKEN = "sc-token";
  /** Time with no frame after which a 10 fps stream counts as idle. */
  static final long QUIET_MS = 700;
  @RegisterExtension
  static final RuntimeOnXvfb RT = RuntimeOnXvfb.withToken(TOKEN);

  private static String start(String callId, String extra) {
    return "{\"verb\":\"start_screencast\",\"fps\":10" + extra + "}";
  }

  private static void ok(JsonNode reply, String callId) {
    assertThat(reply.path("type").asText()).as("%s", reply).isEqualTo("ack");
    assertThat(reply.path("call_id").asText()).isEqualTo(callId);
    assertThat(reply.path("ok").asBoolean()).as("%s", reply).isTrue();
  }

  private static BufferedImage decode(String base64) throws IOException {
    return ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(base64)));
  }

  /** The client side of a delta stream: the keyframe with every later tile painted onto it. */
  private static final class Canvas {
    BufferedImage frame;
    long lastSeq = -1;
    final List<JsonNode> received = new ArrayList<>();
    /** The SDK's compositor fed the same frames: its picture must match this one. */
    final StreamCompositor sdk = new StreamCompositor();
    BufferedImage sdkFrame;

    void apply(JsonNode obs) throws IOException {
      assertThat(obs.path("type").asText()).as("%s", obs).isEqualTo("observation");
      assertThat(obs.has("cause")).isFalse();
      long seq = obs.path("seq").asLong();
      assertThat(seq).as("seq increases").isGreaterThan(lastSeq);
      assertThat(obs.path("obs_id").asText()).isEqualTo(obs.path("stream").asText() + "-" + seq);
      lastSeq = seq;
      received.add(obs);
      sdkFrame = sdk.apply((ObservationMsg) WireCodec.decode(obs)).image();
      if (obs.has("image")) {
        frame = decode(obs.at("/image/ref").asText());
        assertThat(frame.getWidth()).isEqualTo(obs.at("/image/w").asInt());
        return;
      }
      assertThat(frame).as("a delta frame needs a keyframe first").isNotNull();
      for (JsonNode t : obs.path("tiles")) {
        BufferedImage tile = decode(t.path("ref").asText());
        int x = t.path("x").asInt();
        int y = t.path("y").asInt();
        assertThat(x % 64).isZero();
        assertThat(y % 64).isZero();
        assertThat(tile.getWidth()).isEqualTo(t.path("w").asInt());
        assertThat(tile.getHeight()).isEqualTo(t.path("h").asInt());
        for (int ty = 0; ty < tile.getHeight(); ty++) {
          for (int tx = 0; tx < tile.getWidth(); tx++) {
            frame.setRGB(x + tx, y + ty, tile.getRGB(tx, ty));
          }
        }
      }
    }

    /** Applies frames until the stream has been quiet for {@link #QUIET_MS}; returns how many came. */
    int settle(WireClient c) throws IOException {
      int n = 0;
      JsonNode obs;
      while ((obs = c.poll(QUIET_MS)) != null) {
        apply(obs);
        n++;
      }
      return n;
    }
  }

  private static void assertSameAsScreenshot(BufferedImage rebuilt) throws IOException {
    try (WireClient other = WireClient.authenticated(RT.runtime().port(), TOKEN)) {
      JsonNode shot = other.act("shot", "{\"verb\":\"screenshot\",\"format\":\"png\"}");
      Pixels.assertSameRgb(rebuilt, decode(shot.at("/image/ref").asText()));
    }
  }

  @Test
  void deltaStreamRebuildsTheScreenPixelForPixelAndIsQuietWhenIdle() throws Exception {
    try (WireClient c = WireClient.authenticated(RT.runtime().port(), TOKEN);
        TestWindows windows = new TestWindows(RT.display())) {
      ok(c.act("cast", start("cast", ",\"delta\":true,\"format\":\"png\"")), "cast");
      Canvas canvas = new Canvas();
      JsonNode first = c.next();
      canvas.apply(first);
      assertThat(first.path("stream").asText()).isEqualTo("cast");
      assertThat(first.path("seq").asLong()).isZero();
      assertThat(first.has("image")).as("the first frame is a full keyframe").isTrue();
      assertThat(c.poll(QUIET_MS)).as("an unchanged screen sends nothing after the first frame").isNull();
      assertSameAsScreenshot(canvas.frame);

      long red = windows.create(70, 30, 50, 40, 0xCC2020, "red", "Red", null);
      assertThat(canvas.settle(c)).as("a change produces a frame").isGreaterThanOrEqualTo(1);
      JsonNode delta = canvas.received.get(canvas.received.size() - 1);
      assertThat(delta.has("image")).isFalse();
      List<String> places = new ArrayList<>();
      delta.path("tiles").forEach(t -> places.add(t.path("x").asInt() + "," + t.path("y").asInt()));
      assertThat(places).as("only the tiles under the new window").containsExactlyInAnyOrder("64,0", "64,64");
      assertSameAsScreenshot(canvas.frame);

      assertSameAsScreenshot(canvas.sdkFrame);
      windows.patch(red, 10, 10, 20, 15, 0x20CC20);
      long blue = windows.create(250, 150, 70, 50, 0x2040DD, "blue", "Blue", null);
      canvas.settle(c);
      assertSameAsScreenshot(canvas.frame);

      windows.destroy(red);
      canvas.settle(c);
      assertSameAsScreenshot(canvas.frame);
      windows.destroy(blue);
      canvas.settle(c);
      assertSameAsScreenshot(canvas.frame);
      assertSameAsScreenshot(canvas.sdkFrame);

      c.send("{\"type\":\"action\",\"call_id\":\"halt\",\"action\":{\"verb\":\"stop_screencast\"}}");
      JsonNode reply;
      while ((reply = c.next()).path("type").asText().equals("observation")) {
        canvas.apply(reply); // frames already on the way before the stop
      }
      ok(reply, "halt");
      windows.create(0, 0, 100, 100, 0xFFFF00, "yellow", "Yellow", null);
      assertThat(c.poll(QUIET_MS)).as("nothing after stop_screencast's ack").isNull();
      c.assertAlive();
    }
  }

  @Test
  void aKeyframeFollowsEveryThirtyDeliveredDeltaFrames() throws Exception {
    try (WireClient c = WireClient.authenticated(RT.runtime().port(), TOKEN);
        TestWindows windows = new TestWindows(RT.display())) {
      long canvasWindow = windows.create(0, 0, 320, 200, 0x101010, "bg", "Bg", null);
      ok(c.act("keys", "{\"verb\":\"start_screencast\",\"fps\":30,\"delta\":true}"), "keys");
      Canvas canvas = new Canvas();
      canvas.apply(c.next());
      List<Boolean> keyframes = new ArrayList<>();
      for (int i = 0; i < 33; i++) {
        windows.patch(canvasWindow, (i * 9) % 300, (i * 5) % 180, 8, 8, 0x100000 * (i % 15) + 0x3377);
        JsonNode obs = c.next();
        canvas.apply(obs);
        keyframes.add(obs.has("image"));
      }
      canvas.settle(c);
      // delivered frames 1..29 are deltas, delivered frame 30 is the periodic keyframe
      assertThat(keyframes.subList(0, 29)).containsOnly(false);
      assertThat(keyframes.get(29)).as("the 30th delivered frame after the first keyframe").isTrue();
      assertThat(keyframes.subList(30, 33)).containsOnly(false);
      assertSameAsScreenshot(canvas.frame);
      windows.destroy(canvasWindow);
      ok(c.act("stop", "{\"verb\":\"stop_screencast\"}"), "stop");
    }
  }

  /** The reply to {@code callId}, skipping the stream frames that arrive before it. */
  private static JsonNode reply(WireClient c, String callId, String actionJson) {
    c.send("{\"type\":\"action\",\"call_id\":\"" + callId + "\",\"action\":" + actionJson + "}");
    JsonNode r;
    while ((r = c.next()).path("type").asText().equals("observation")) {
      assertThat(r.path("seq").asLong()).as("only first frames: the screen is idle").isZero();
    }
    return r;
  }

  @Test
  void fpsOutsideTheSchemaBoundsIsRefusedAndTheSessionLives() {
    try (WireClient c = WireClient.authenticated(RT.runtime().port(), TOKEN)) {
      for (String fps : new String[] {"9000", "0", "0.05", "30.5"}) {
        JsonNode nack = c.act("f" + fps, "{\"verb\":\"start_screencast\",\"fps\":" + fps + "}");
        assertThat(nack.path("ok").asBoolean()).as("%s", nack).isFalse();
        assertThat(nack.path("error").asText()).startsWith("bad action:").contains("fps");
      }
      assertThat(c.poll(QUIET_MS)).as("no stream started").isNull();
      c.assertAlive();
    }
  }

  @Test
  void fullFramesAreIdleSuppressedAndStreamsAreCappedPerConnection() throws Exception {
    try (WireClient c = WireClient.authenticated(RT.runtime().port(), TOKEN)) {
      ok(c.act("full", "{\"verb\":\"start_screencast\",\"fps\":30,\"format\":\"jpeg\",\"quality\":50,"
          + "\"max_long_edge\":160}"), "full");
      JsonNode first = c.next();
      assertThat(first.path("stream").asText()).isEqualTo("full");
      assertThat(first.at("/image/format").asText()).isEqualTo("jpeg");
      assertThat(first.at("/image/w").asInt()).isEqualTo(160);
      assertThat(first.at("/image/h").asInt()).isEqualTo(100);
      assertThat(c.poll(QUIET_MS)).as("idle at 30 fps still sends nothing").isNull();
      for (int i = 2; i <= 4; i++) {
        ok(reply(c, "s" + i, "{\"verb\":\"start_screencast\",\"fps\":0.1}"), "s" + i);
      }
      JsonNode refused = reply(c, "s5", "{\"verb\":\"start_screencast\"}");
      assertThat(refused.path("ok").asBoolean()).isFalse();
      assertThat(refused.path("error").asText()).isEqualTo("max concurrent screencasts reached (4)");
      ok(reply(c, "halt", "{\"verb\":\"stop_screencast\"}"), "halt");
      assertThat(c.poll(QUIET_MS)).as("nothing after stop_screencast's ack").isNull();
      ok(c.act("again", "{\"verb\":\"start_screencast\",\"fps\":1}"), "again");
      assertThat(c.next().path("stream").asText()).as("a stop frees the slots").isEqualTo("again");
      ok(c.act("halt2", "{\"verb\":\"stop_screencast\"}"), "halt2");
    }
  }

  @Test
  void resumeContinuesIdAndSeqWithAKeyframeAndAnUnknownStreamStartsAfresh() throws Exception {
    Canvas canvas = new Canvas();
    try (WireClient a = WireClient.authenticated(RT.runtime().port(), TOKEN);
        TestWindows windows = new TestWindows(RT.display())) {
      ok(a.act("long", "{\"verb\":\"start_screencast\",\"fps\":10,\"delta\":true}"), "long");
      canvas.apply(a.next());
      long w = windows.create(10, 10, 30, 30, 0x884422, "w", "W", null);
      assertThat(canvas.settle(a)).isGreaterThanOrEqualTo(1);
      ok(reply(a, "end", "{\"verb\":\"stop_screencast\"}"), "end");
      windows.destroy(w);
    }
    long resumedFrom = canvas.lastSeq + 1;
    try (WireClient b = WireClient.authenticated(RT.runtime().port(), TOKEN)) {
      ok(b.act("again", "{\"verb\":\"start_screencast\",\"fps\":10,\"delta\":true,\"resume_stream\":\"long\"}"),
          "again");
      JsonNode first = b.next();
      assertThat(first.path("stream").asText()).as("the same stream id").isEqualTo("long");
      assertThat(first.path("seq").asLong()).as("seq continues").isEqualTo(resumedFrom);
      assertThat(first.has("image")).as("a keyframe after a resume").isTrue();
      canvas.apply(first);
      assertSameAsScreenshot(canvas.frame);
      ok(reply(b, "halt", "{\"verb\":\"stop_screencast\"}"), "halt");

      ok(b.act("fresh", "{\"verb\":\"start_screencast\",\"resume_stream\":\"never-seen\"}"), "fresh");
      JsonNode other = b.next();
      assertThat(other.path("stream").asText()).as("a new stream: the call_id").isEqualTo("fresh");
      assertThat(other.path("seq").asLong()).isZero();
      ok(reply(b, "halt2", "{\"verb\":\"stop_screencast\"}"), "halt2");
    }
  }
}
