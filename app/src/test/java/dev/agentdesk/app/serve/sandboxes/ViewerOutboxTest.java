package dev.agentdesk.app.serve.sandboxes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.app.serve.Json;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The live view's backpressure and framing without a network (the real socket is in
 * {@link LiveViewTest}): a transport that completes writes only when the test says so stands for
 * a slow browser; what it finally gets is checked against a plain model of the picture.
 */
class ViewerOutboxTest {
  /** Records every write; completes it at once or when {@link #completeAll} is called. */
  static final class SlowTransport implements ViewerOutbox.Transport {
    final List<Object> sent = new ArrayList<>();
    final List<Runnable> unfinished = new ArrayList<>();
    boolean completeAtOnce;
    String closedWith;

    @Override
    public void sendText(String text, Runnable done, Consumer<Throwable> failed) {
      sent.add(text);
      finish(done);
    }

    @Override
    public void sendBinary(byte[] bytes, Runnable done, Consumer<Throwable> failed) {
      sent.add(bytes);
      finish(done);
    }

    private void finish(Runnable done) {
      if (completeAtOnce) {
        done.run();
      } else {
        unfinished.add(done);
      }
    }

    void completeAll() {
      while (!unfinished.isEmpty()) {
        unfinished.remove(0).run();
      }
    }

    @Override
    public void close(int code, String reason) {
      closedWith = code + " " + reason;
    }
  }

  static ScreenPatch keyframe(long seq, int w, int h, byte fill) {
    ScreenPatch p = new ScreenPatch();
    byte[] img = new byte[16];
    Arrays.fill(img, fill);
    p.keyframe(seq, "png", new ScreenPatch.Piece(0, 0, w, h, img));
    return p;
  }

  static ScreenPatch tiles(long seq, int w, int h, int[][] places, byte fill) {
    ScreenPatch p = new ScreenPatch();
    List<ScreenPatch.Piece> pieces = new ArrayList<>();
    for (int[] xy : places) {
      pieces.add(new ScreenPatch.Piece(xy[0], xy[1], 64, 64, new byte[] {fill, (byte) xy[0], (byte) xy[1]}));
    }
    p.tiles(seq, "png", pieces);
    p.size(w, h);
    return p;
  }

  /** A decoded patch message: the header and the payload. */
  record Decoded(JsonNode header, byte[] payload) {
    static Decoded of(byte[] message) {
      ByteBuffer b = ByteBuffer.wrap(message).order(ByteOrder.LITTLE_ENDIAN);
      int len = b.getInt();
      String header = new String(message, 4, len, StandardCharsets.UTF_8);
      try {
        return new Decoded(Json.MAPPER.readTree(header), Arrays.copyOfRange(message, 4 + len, message.length));
      } catch (java.io.IOException e) {
        throw new AssertionError(e);
      }
    }

    byte[] bytes(JsonNode range) {
      return Arrays.copyOfRange(payload, range.get("off").asInt(), range.get("off").asInt() + range.get("len").asInt());
    }
  }

  @Test
  void aPatchIsOneBinaryMessageWithItsRangesInTheHeader() {
    ScreenPatch p = keyframe(7, 1024, 640, (byte) 9);
    p.merge(tiles(8, 1024, 640, new int[][] {{64, 0}, {128, 64}}, (byte) 1));
    Decoded d = Decoded.of(p.encode());
    assertThat(d.header().get("seq").asLong()).isEqualTo(8);
    assertThat(d.header().get("w").asInt()).isEqualTo(1024);
    assertThat(d.header().get("h").asInt()).isEqualTo(640);
    assertThat(d.header().get("format").asText()).isEqualTo("png");
    assertThat(d.bytes(d.header().get("image"))).containsOnly(9).hasSize(16);
    JsonNode t = d.header().get("tiles");
    assertThat(t).hasSize(2);
    assertThat(t.get(1).get("x").asInt()).isEqualTo(128);
    assertThat(t.get(1).get("y").asInt()).isEqualTo(64);
    assertThat(d.bytes(t.get(1))).containsExactly(1, (byte) 128, 64);
    assertThat(d.payload()).hasSize(16 + 3 + 3);
  }

  @Test
  void aSlowViewerGetsFramesMergedAndNeverMoreThanOnePictureWaits() {
    SlowTransport slow = new SlowTransport();
    ViewerOutbox out = new ViewerOutbox(slow);
    out.frame(keyframe(0, 640, 384, (byte) 0));
    assertThat(slow.sent).hasSize(1); // in flight, not completed
    // A thousand frames while the first write hangs: a 10 x 6 grid, every tile changed many times.
    Random r = new Random(42);
    int[][] model = new int[10][6]; // the fill byte the viewer must end up with per tile (0 = keyframe's)
    for (int seq = 1; seq <= 1000; seq++) {
      int n = 1 + r.nextInt(5);
      int[][] places = new int[n][];
      for (int i = 0; i < n; i++) {
        int gx = r.nextInt(10);
        int gy = r.nextInt(6);
        places[i] = new int[] {gx * 64, gy * 64};
        model[gx][gy] = seq % 100 + 1;
      }
      out.frame(tiles(seq, 640, 384, places, (byte) (seq % 100 + 1)));
      assertThat(out.pendingTiles()).isLessThanOrEqualTo(60);
    }
    assertThat(slow.sent).hasSize(1);
    assertThat(out.patchesMerged()).isEqualTo(999);
    slow.completeAll();
    assertThat(slow.sent).hasSize(2);
    Decoded d = Decoded.of((byte[]) slow.sent.get(1));
    assertThat(d.header().get("seq").asLong()).isEqualTo(1000);
    // Each tile appears once, with the latest bytes for its place.
    int[][] seen = new int[10][6];
    for (JsonNode t : d.header().get("tiles")) {
      int gx = t.get("x").asInt() / 64;
      int gy = t.get("y").asInt() / 64;
      assertThat(seen[gx][gy]).as("tile %d,%d sent once", gx, gy).isZero();
      seen[gx][gy] = d.bytes(t)[0];
    }
    assertThat(seen).isDeepEqualTo(model);
  }

  @Test
  void aKeyframeReplacesWhatWaitsAndTextsGoFirst() {
    SlowTransport slow = new SlowTransport();
    ViewerOutbox out = new ViewerOutbox(slow);
    out.text("{\"type\":\"state\"}");
    out.frame(tiles(1, 640, 384, new int[][] {{0, 0}}, (byte) 5));
    out.frame(keyframe(2, 800, 600, (byte) 7));
    out.frame(tiles(3, 800, 600, new int[][] {{64, 64}}, (byte) 8));
    out.text("{\"type\":\"acted\"}");
    slow.completeAll();
    assertThat(slow.sent).hasSize(3);
    assertThat(slow.sent.get(0)).isEqualTo("{\"type\":\"state\"}");
    assertThat(slow.sent.get(1)).isEqualTo("{\"type\":\"acted\"}");
    Decoded d = Decoded.of((byte[]) slow.sent.get(2));
    assertThat(d.header().get("w").asInt()).isEqualTo(800);
    assertThat(d.bytes(d.header().get("image"))).containsOnly(7);
    assertThat(d.header().get("tiles")).hasSize(1);
    assertThat(d.header().get("tiles").get(0).get("x").asInt()).isEqualTo(64);
  }

  @Test
  void writesThatCompleteInsideTheSendCallGoOnInOrder() {
    SlowTransport t = new SlowTransport();
    ViewerOutbox out = new ViewerOutbox(t);
    out.text("{\"n\":0}");
    for (int i = 1; i < 200; i++) {
      out.text("{\"n\":" + i + "}");
    }
    out.frame(keyframe(1, 10, 10, (byte) 1));
    t.completeAtOnce = true; // from now on each write completes inside the send call
    t.completeAll();
    assertThat(t.sent).hasSize(201);
    for (int i = 0; i < 200; i++) {
      assertThat(t.sent.get(i)).isEqualTo("{\"n\":" + i + "}");
    }
    assertThat(t.sent.get(200)).isInstanceOf(byte[].class);
    assertThat(out.patchesSent()).isEqualTo(1);
    assertThat(t.closedWith).isNull();
  }

  @Test
  void aViewerThatReadsNothingIsClosedAfterTheTextLimit() {
    SlowTransport stalled = new SlowTransport();
    ViewerOutbox out = new ViewerOutbox(stalled);
    for (int i = 0; i <= ViewerOutbox.MAX_TEXTS + 1; i++) {
      out.text("{\"n\":" + i + "}");
    }
    assertThat(stalled.closedWith).startsWith("1008");
    out.frame(keyframe(1, 10, 10, (byte) 1));
    stalled.completeAll();
    assertThat(stalled.sent).hasSize(1);
  }
}
