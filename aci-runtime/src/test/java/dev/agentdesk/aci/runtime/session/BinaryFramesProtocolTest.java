package dev.agentdesk.aci.runtime.session;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.aci.client.StreamCompositor;
import dev.agentdesk.aci.runtime.x11.TestWindows;
import dev.agentdesk.aci.wire.BinaryFrame;
import dev.agentdesk.aci.wire.BinaryFrames;
import dev.agentdesk.aci.wire.Channel;
import dev.agentdesk.testkit.XvfbConfig;
import dev.agentdesk.testkit.XvfbExtension;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Base64;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Binary frames and observe-after-act on a real Xvfb: a session that sent
 * {@code hello.accept.binary_frames:true} receives every image-bearing observation and every exec
 * output chunk as one binary message (its JSON header checked against the schema definition by
 * {@link WireClient}), and the pixels are the ones a text session receives as base64.
 */
@ExtendWith(XvfbExtension.class)
@XvfbConfig(width = 320, height = 200)
class BinaryFramesProtocolTest {
  static final String TOKEN = "bin-token";
  @RegisterExtension
  static final RuntimeOnXvfb RT = RuntimeOnXvfb.withToken(TOKEN, true);

  private static void ok(Object reply, String callId) {
    assertThat(reply).as("a JSON reply").isInstanceOf(JsonNode.class);
    JsonNode r = (JsonNode) reply;
    assertThat(r.path("type").asText()).as("%s", r).isEqualTo("ack");
    assertThat(r.path("call_id").asText()).isEqualTo(callId);
    assertThat(r.path("ok").asBoolean()).as("%s", r).isTrue();
  }

  private static int[] pixels(byte[] encoded) throws IOException {
    BufferedImage img = ImageIO.read(new ByteArrayInputStream(encoded));
    return img.getRGB(0, 0, img.getWidth(), img.getHeight(), null, 0, img.getWidth());
  }

  private static int[] pixels(BufferedImage img) {
    return img.getRGB(0, 0, img.getWidth(), img.getHeight(), null, 0, img.getWidth());
  }

  private static Object actAny(WireClient c, String callId, String actionJson) {
    c.send("{\"type\":\"action\",\"call_id\":\"" + callId + "\",\"action\":" + actionJson + "}");
    return c.nextAny();
  }

  @Test
  void aSessionThatDidNotAskStaysText() throws Exception {
    try (WireClient text = WireClient.authenticated(RT.runtime().port(), TOKEN)) {
      JsonNode shot = text.act("t1", "{\"verb\":\"screenshot\"}");
      assertThat(shot.path("type").asText()).isEqualTo("observation");
      assertThat(shot.at("/image/ref").isTextual()).as("base64 on a session that did not ask").isTrue();
      assertThat(text.binaryFrames()).isZero();
    }
  }

  @Test
  void binaryAndTextSessionsCarryTheSamePixels() throws Exception {
    try (WireClient text = WireClient.authenticated(RT.runtime().port(), TOKEN);
        WireClient bin = WireClient.authenticatedBinary(RT.runtime().port(), TOKEN);
        TestWindows windows = new TestWindows(RT.display())) {
      long w = windows.create(20, 30, 90, 60, 0x3366CC, "w", "W", null);
      JsonNode textShot = text.act("t", "{\"verb\":\"screenshot\",\"format\":\"png\"}");
      Object reply = actAny(bin, "b", "{\"verb\":\"screenshot\",\"format\":\"png\"}");
      assertThat(reply).as("an image-bearing observation is one binary message").isInstanceOf(BinaryFrame.Media.class);
      BinaryFrame.Media media = (BinaryFrame.Media) reply;
      assertThat(media.header().cause()).isEqualTo("b");
      assertThat(media.header().obsId()).isEqualTo("obs-b");
      assertThat(media.header().frameHash()).isEqualTo(textShot.path("frame_hash").asText());
      assertThat(media.header().image().w()).isEqualTo(320);
      assertThat(media.header().pointer()).isNotNull();
      assertThat(media.header().display()).isNotNull();
      byte[] textBytes = Base64.getDecoder().decode(textShot.at("/image/ref").asText());
      assertThat(pixels(media.image())).isEqualTo(pixels(textBytes));
      assertThat(media.image()).as("the same png bytes, without base64").isEqualTo(textBytes);

      // not_modified stays a JSON text frame on a binary session
      Object same = actAny(bin, "b2", "{\"verb\":\"screenshot\",\"if_none_match\":\"" + media.header().frameHash()
          + "\"}");
      assertThat(same).isInstanceOf(JsonNode.class);
      assertThat(((JsonNode) same).path("not_modified").asBoolean()).isTrue();
      windows.destroy(w);
    }
  }

  @Test
  void aBinaryDeltaStreamRebuildsWhatTheTextSessionSees() throws Exception {
    try (WireClient text = WireClient.authenticated(RT.runtime().port(), TOKEN);
        WireClient bin = WireClient.authenticatedBinary(RT.runtime().port(), TOKEN);
        TestWindows windows = new TestWindows(RT.display())) {
      ok(actAny(bin, "cast", "{\"verb\":\"start_screencast\",\"fps\":10,\"delta\":true}"), "cast");
      StreamCompositor compositor = new StreamCompositor();
      Object first = bin.nextAny();
      assertThat(first).as("the keyframe is binary").isInstanceOf(BinaryFrame.Media.class);
      BufferedImage frame = compositor.apply(BinaryFrames.toObservation((BinaryFrame.Media) first)).image();
      boolean sawTiles = false;
      long red = windows.create(70, 30, 50, 40, 0xCC2020, "red", "Red", null);
      windows.patch(red, 5, 5, 10, 10, 0x00FF00);
      Object m;
      while ((m = bin.pollAny(700)) != null) {
        assertThat(m).as("stream frames are binary").isInstanceOf(BinaryFrame.Media.class);
        BinaryFrame.Media f = (BinaryFrame.Media) m;
        assertThat(f.header().stream()).isEqualTo("cast");
        assertThat(f.header().cause()).isNull();
        sawTiles |= f.header().tiles() != null;
        frame = compositor.apply(BinaryFrames.toObservation(f)).image();
      }
      assertThat(sawTiles).as("a delta frame with tiles came as binary").isTrue();
      JsonNode textShot = text.act("t", "{\"verb\":\"screenshot\",\"format\":\"png\"}");
      assertThat(pixels(frame)).isEqualTo(pixels(Base64.getDecoder().decode(textShot.at("/image/ref").asText())));
      bin.send("{\"type\":\"action\",\"call_id\":\"halt\",\"action\":{\"verb\":\"stop_screencast\"}}");
      while ((m = bin.nextAny()) instanceof BinaryFrame) {
        // frames already on the way before the stop
      }
      ok(m, "halt");
      windows.destroy(red);
    }
  }

  @Test
  void streamedExecOutputIsBinaryAndTheExitStaysText() throws Exception {
    String action = "{\"verb\":\"exec\",\"shell\":\"printf 'out\\\\001\\\\377'; printf err >&2\",\"stream\":true}";
    try (WireClient bin = WireClient.authenticatedBinary(RT.runtime().port(), TOKEN);
        WireClient text = WireClient.authenticated(RT.runtime().port(), TOKEN)) {
      ok(actAny(bin, "x", action), "x");
      ByteArrayOutputStream stdout = new ByteArrayOutputStream();
      ByteArrayOutputStream stderr = new ByteArrayOutputStream();
      Object m;
      while ((m = bin.nextAny()) instanceof BinaryFrame frame) {
        assertThat(frame).isInstanceOf(BinaryFrame.ExecOutput.class);
        BinaryFrame.ExecOutput chunk = (BinaryFrame.ExecOutput) frame;
        assertThat(chunk.header().cause()).isEqualTo("x");
        (chunk.header().channel() == Channel.STDOUT ? stdout : stderr).writeBytes(chunk.data());
      }
      JsonNode exit = (JsonNode) m;
      assertThat(exit.path("type").asText()).isEqualTo("exec_exit");
      assertThat(exit.path("exit_code").asInt()).isZero();

      ok(text.act("x", action), "x");
      ByteArrayOutputStream textOut = new ByteArrayOutputStream();
      JsonNode t;
      while ((t = text.next()).path("type").asText().equals("exec_output")) {
        if (t.path("channel").asText().equals("stdout")) {
          textOut.writeBytes(Base64.getDecoder().decode(t.path("data_b64").asText()));
        }
      }
      assertThat(stdout.toByteArray()).isEqualTo(new byte[] {'o', 'u', 't', 1, (byte) 0xFF})
          .isEqualTo(textOut.toByteArray());
      assertThat(stderr.toString()).isEqualTo("err");
    }
  }

  @Test
  void observeAfterActFollowsTheAckWithAFreshObservationOnBothFramings() throws Exception {
    try (WireClient text = WireClient.authenticated(RT.runtime().port(), TOKEN);
        WireClient bin = WireClient.authenticatedBinary(RT.runtime().port(), TOKEN);
        TestWindows windows = new TestWindows(RT.display())) {
      long under = windows.create(100, 50, 80, 80, 0x11AA11, "under", "Under", null);
      long over = windows.create(140, 90, 80, 80, 0xAA1111, "over", "Over", null);
      // raising the lower window changes the overlap (150,100) from red to green
      JsonNode ack = text.act("raise", "{\"verb\":\"activate_window\",\"window_id\":" + under
          + ",\"observe\":{\"format\":\"png\",\"max_long_edge\":160}}");
      ok(ack, "raise");
      JsonNode obs = text.next();
      assertThat(obs.path("type").asText()).isEqualTo("observation");
      assertThat(obs.path("cause").asText()).isEqualTo("raise");
      assertThat(obs.at("/image/w").asInt()).as("max_long_edge applied").isEqualTo(160);
      BufferedImage seen = ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(
          obs.at("/image/ref").asText())));
      assertThat(seen.getRGB(75, 50) & 0xFFFFFF).as("the raised window in the overlap").isEqualTo(0x11AA11);

      ok(actAny(bin, "raise2", "{\"verb\":\"activate_window\",\"window_id\":" + over
          + ",\"observe\":{\"scope\":\"window:" + over + "\",\"format\":\"png\"}}"), "raise2");
      Object follow = bin.nextAny();
      assertThat(follow).as("the follow-up is binary on a binary session").isInstanceOf(BinaryFrame.Media.class);
      BinaryFrame.Media media = (BinaryFrame.Media) follow;
      assertThat(media.header().cause()).isEqualTo("raise2");
      assertThat(media.header().image().w()).isEqualTo(80);
      BufferedImage window = ImageIO.read(new ByteArrayInputStream(media.image()));
      assertThat(window.getRGB(0, 0) & 0xFFFFFF).as("raised over the other: its own colour").isEqualTo(0xAA1111);

      // a failed action gets its nack and no follow-up
      JsonNode nack = text.act("gone", "{\"verb\":\"activate_window\",\"window_id\":123456789,\"observe\":{}}");
      assertThat(nack.path("ok").asBoolean()).isFalse();
      assertThat(text.poll(500)).as("no observation after a nack").isNull();
      // observe on a non-mutating verb is refused before anything runs
      JsonNode refused = text.act("shot", "{\"verb\":\"screenshot\",\"observe\":{}}");
      assertThat(refused.path("type").asText()).isEqualTo("ack");
      assertThat(refused.path("ok").asBoolean()).isFalse();
      assertThat(refused.path("error").asText()).isEqualTo("observe is not supported on verb \"screenshot\"");
      JsonNode badScope = text.act("k", "{\"verb\":\"key\",\"keys\":\"shift\",\"observe\":{\"scope\":\"nowhere\"}}");
      assertThat(badScope.path("error").asText()).isEqualTo("invalid observe scope: nowhere");
      assertThat(text.poll(300)).isNull();
      text.assertAlive();
      windows.destroy(over);
      windows.destroy(under);
    }
  }
}
