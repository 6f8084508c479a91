package dev.agentdesk.aci.runtime.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.aci.client.AciClient;
import dev.agentdesk.aci.client.AciClientOptions;
import dev.agentdesk.aci.client.ActionReply;
import dev.agentdesk.aci.client.Screencast;
import dev.agentdesk.aci.client.StreamCompositor;
import dev.agentdesk.aci.client.WindowInfo;
import dev.agentdesk.aci.runtime.x11.TestWindows;
import dev.agentdesk.aci.wire.ImageFormat;
import dev.agentdesk.aci.wire.ObserveSpec;
import dev.agentdesk.testkit.XvfbConfig;
import dev.agentdesk.testkit.XvfbExtension;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The SDK's screencast subscription and observe-after-act against the real runtime on a real
 * Xvfb, over text and binary sessions: the frames it composes from a png delta stream equal a
 * direct lossless screenshot pixel for pixel after typing into a real terminal (xterm) and moving
 * windows around.
 */
@ExtendWith(XvfbExtension.class)
@XvfbConfig(width = 480, height = 320)
class SdkScreencastTest {
  static final String TOKEN = "sdk-cast";
  static final ObserveSpec PNG = new ObserveSpec(null, ImageFormat.PNG, null, null);
  /** No frame for this long and the stream counts as settled. */
  static final Duration QUIET = Duration.ofMillis(700);
  @RegisterExtension
  static final RuntimeOnXvfb RT = RuntimeOnXvfb.withToken(TOKEN);

  private static AciClient connect(boolean binary) {
    return AciClient.connect(URI.create("ws://127.0.0.1:" + RT.runtime().port() + "/"), AciClientOptions.defaults()
        .withToken(TOKEN).withBinaryFrames(binary).withCallTimeout(Duration.ofSeconds(15)).withValidateOutgoing(true));
  }

  private static BufferedImage decode(byte[] png) throws IOException {
    return ImageIO.read(new ByteArrayInputStream(png));
  }

  /** Frames until the stream has been quiet for {@link #QUIET}; returns the last (or {@code last}). */
  private static StreamCompositor.Frame settle(Screencast cast, StreamCompositor.Frame last, List<Boolean> keys) {
    StreamCompositor.Frame f;
    while ((f = cast.next(QUIET)) != null) {
      keys.add(f.keyframe());
      last = f;
    }
    return last;
  }

  private static void assertSameAsScreenshot(AciClient c, BufferedImage rebuilt) throws IOException {
    Pixels.assertSameRgb(rebuilt, decode(c.screenshot(PNG).image()));
  }

  private static Process xterm(String title) throws IOException {
    ProcessBuilder pb = new ProcessBuilder("xterm", "-title", title, "-geometry", "40x8+20+20", "+bc", "-e", "cat")
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
    pb.environment().put("DISPLAY", RT.display());
    return pb.start();
  }

  private static WindowInfo window(AciClient c, String title) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (System.nanoTime() < deadline) {
      for (WindowInfo w : c.listWindows()) {
        if (w.title().equals(title)) {
          return w;
        }
      }
      Thread.sleep(100);
    }
    throw new AssertionError("no window titled " + title);
  }

  @ParameterizedTest(name = "binary frames: {0}")
  @ValueSource(booleans = {false, true})
  void composedFramesEqualScreenshotsWhileTypingInATerminalAndMovingWindows(boolean binary) throws Exception {
    String title = "term-" + binary;
    Process term = xterm(title);
    try (AciClient c = connect(binary); TestWindows windows = new TestWindows(RT.display())) {
      WindowInfo tw = window(c, title);
      c.activateWindow(tw.id());
      Thread.sleep(300); // xterm draws its first screen
      List<Boolean> keys = new ArrayList<>();
      List<StreamCompositor.Frame> pushed = new CopyOnWriteArrayList<>();
      try (Screencast cast = c.screencast(PNG, 10.0, true, null, pushed::add)) {
        StreamCompositor.Frame last = settle(cast, null, keys);
        assertThat(last).as("a first frame").isNotNull();
        assertThat(keys.get(0)).as("the first frame is a keyframe").isTrue();
        assertSameAsScreenshot(c, last.image());

        for (String word : new String[] {"hello", " world", "\n", "typed into xterm"}) {
          int before = keys.size();
          c.typeText(word);
          last = settle(cast, last, keys);
          assertThat(keys.size()).as("xterm drew \"%s\": the stream sent a frame", word).isGreaterThan(before);
          assertSameAsScreenshot(c, last.image());
        }
        long box = windows.create(300, 200, 60, 40, 0x2266AA, "box", "Box", null);
        last = settle(cast, last, keys);
        for (int i = 1; i <= 4; i++) {
          windows.move(box, 300 - 37 * i, 200 - 23 * i); // across the terminal and back over the root
          windows.move(tw.id(), 20 + 9 * i, 20 + 5 * i);
          last = settle(cast, last, keys);
          assertSameAsScreenshot(c, last.image());
        }
        windows.destroy(box);
        last = settle(cast, last, keys);
        assertSameAsScreenshot(c, last.image());
        assertThat(keys).as("typing and moves went as delta frames").contains(false);
        assertThat(cast.streamId()).isEqualTo(cast.callId());
        assertThat(cast.resumed()).isFalse();
        assertThat(pushed).as("the listener saw every frame next() saw").hasSize(keys.size());
        assertThat(cast.discarded()).isZero();
      }
    } finally {
      term.destroy();
      term.waitFor(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void anIdleScreenSendsNothingAndOneChangeSendsOneFrame() throws Exception {
    try (AciClient c = connect(true); TestWindows windows = new TestWindows(RT.display());
        Screencast cast = c.screencast(PNG, 10.0, true, null, null)) {
      assertThat(cast.next(Duration.ofSeconds(5))).as("the first keyframe").isNotNull();
      assertThat(cast.next(Duration.ofSeconds(1))).as("an idle screen: no frame in 1 s at 10 fps").isNull();
      long w = windows.create(5, 5, 30, 30, 0xAA8800, "one", "One", null);
      StreamCompositor.Frame one = cast.next(Duration.ofSeconds(5));
      assertThat(one).as("the change").isNotNull();
      assertThat(one.keyframe()).isFalse();
      assertThat(one.missed()).isZero();
      assertThat(cast.next(Duration.ofSeconds(1))).as("one change, one frame").isNull();
      windows.destroy(w);
    }
  }

  @Test
  void resumeContinuesTheSeqOrReportsANewStream() throws Exception {
    String id;
    long lastSeq;
    try (AciClient c = connect(true); TestWindows windows = new TestWindows(RT.display())) {
      Screencast first = c.screencast(PNG, 10.0, true, null, null);
      StreamCompositor.Frame f = first.next(Duration.ofSeconds(5));
      long w = windows.create(40, 40, 20, 20, 0x55AA55, "r", "R", null);
      StreamCompositor.Frame g = first.next(Duration.ofSeconds(5));
      assertThat(g.seq()).isEqualTo(f.seq() + 1);
      first.close();
      id = first.streamId();
      lastSeq = g.seq();
      windows.destroy(w);
    }
    try (AciClient c = connect(false)) {
      try (Screencast again = c.screencast(PNG, 10.0, true, id, null)) {
        StreamCompositor.Frame f = again.next(Duration.ofSeconds(5));
        assertThat(again.resumed()).as("the runtime still held the stream").isTrue();
        assertThat(f.stream()).isEqualTo(id);
        assertThat(f.seq()).as("seq continues").isEqualTo(lastSeq + 1);
        assertThat(f.keyframe()).as("a resume starts with a keyframe").isTrue();
        assertSameAsScreenshot(c, f.image());
      }
      try (Screencast fresh = c.screencast(PNG, 10.0, true, "gone-" + id, null)) {
        StreamCompositor.Frame f = fresh.next(Duration.ofSeconds(5));
        assertThat(fresh.resumed()).as("an unknown stream: a new one").isFalse();
        assertThat(f.stream()).isEqualTo(fresh.callId());
        assertThat(f.seq()).isZero();
      }
    }
  }

  @ParameterizedTest(name = "binary frames: {0}")
  @ValueSource(booleans = {false, true})
  void observeAfterActOnTheSdkReturnsTheFollowUpObservation(boolean binary) throws Exception {
    try (AciClient c = connect(binary); TestWindows windows = new TestWindows(RT.display())) {
      assertThat(c.capabilities().supportsObserveAfterAct()).isTrue();
      long under = windows.create(100, 100, 60, 60, 0x22BB22, "under", "Under", null);
      long over = windows.create(130, 130, 60, 60, 0xBB2222, "over", "Over", null);
      ActionReply.Acked r = c.observing(PNG).activateWindow(under);
      assertThat(r.ack().ok()).isTrue();
      assertThat(r.followUp()).isNotNull();
      assertThat(r.followUp().cause()).isEqualTo(r.ack().callId());
      BufferedImage seen = decode(Base64.getDecoder().decode(r.followUp().image().ref()));
      assertThat(seen.getRGB(140, 140) & 0xFFFFFF).as("the raised window in the overlap").isEqualTo(0x22BB22);
      ActionReply.Acked typed = c.observing(new ObserveSpec(null, ImageFormat.JPEG, 60, 240)).key("shift");
      assertThat(typed.followUp().image().format()).isEqualTo(ImageFormat.JPEG);
      assertThat(typed.followUp().image().w()).isEqualTo(240);
      windows.destroy(over);
      windows.destroy(under);
    }
  }

  @Test
  void aStreamEndedByItsConnectionClosingCanBeResumedOnANewOne() throws Exception {
    String id;
    long lastSeq;
    AciClient a = connect(true);
    try {
      Screencast cast = a.screencast(PNG, 10.0, true, null, null);
      StreamCompositor.Frame f = cast.next(Duration.ofSeconds(5));
      assertThat(f).isNotNull();
      id = cast.callId();
      lastSeq = f.seq();
    } finally {
      a.close(); // no stop_screencast: the runtime parks the stream when the connection goes
    }
    try (AciClient b = connect(false); Screencast again = b.screencast(PNG, 10.0, true, id, null)) {
      StreamCompositor.Frame f = again.next(Duration.ofSeconds(5));
      assertThat(again.resumed()).as("parked when its connection closed").isTrue();
      assertThat(f.seq()).isGreaterThan(lastSeq);
      assertThat(f.keyframe()).isTrue();
      assertSameAsScreenshot(b, f.image());
    }
  }
}
