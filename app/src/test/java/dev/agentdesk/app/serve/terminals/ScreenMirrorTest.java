package dev.agentdesk.app.serve.terminals;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.terminal.vt.VtEngine;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What a browser that joins a terminal late receives: a repaint, then every chunk, resizes in place. */
class ScreenMirrorTest {

  /** A viewer that replays what it gets into its own engine, as xterm.js does in the browser. */
  static final class Replay implements ScreenMirror.Viewer {
    VtEngine engine;
    final List<String> log = new ArrayList<>();

    @Override
    public void start(int cols, int rows, byte[] repaint) {
      engine = new VtEngine(cols, rows);
      engine.feed(repaint);
      log.add("start " + cols + "x" + rows);
    }

    @Override
    public void output(byte[] chunk) {
      engine.feed(chunk);
      log.add("output " + chunk.length);
    }

    @Override
    public void resized(int cols, int rows) {
      engine.resize(cols, rows);
      log.add("resize " + cols + "x" + rows);
    }
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aLateViewerSeesTheScreenAndTheScrollbackThenFollowsTheStream() {
    ScreenMirror m = new ScreenMirror(40, 5);
    for (int i = 1; i <= 30; i++) {
      m.feed(b("\u001b[3" + (i % 8) + "mline " + i + "\u001b[m\r\n"));
    }
    m.feed(b("\u001b[38;2;1;2;3mhalf"));
    Replay v = new Replay();
    m.attach(v);
    assertThat(v.engine.snapshot()).isEqualTo(m.snapshot());
    assertThat(v.engine.log().stream().map(l -> l.text()).toList()).isEqualTo(m.log());

    m.feed(b(" done\r\n\u001b[?1049hfull screen"));
    assertThat(v.engine.snapshot()).isEqualTo(m.snapshot());
    assertThat(v.engine.modes().altScreen()).isTrue();
    assertThat(v.engine.styledRow(v.engine.snapshot().cursorRow()).get(0).style().foreground())
        .as("the pen set before the repaint").isEqualTo(new dev.agentdesk.terminal.vt.Color.Rgb(1, 2, 3));
    assertThat(v.log).containsExactly("start 40x5", "output 26");
  }

  @Test
  void aResizeReachesViewersAtItsPlaceInTheStreamAndTheSameSizeIsNoChange() {
    ScreenMirror m = new ScreenMirror(30, 4);
    Replay v = new Replay();
    m.attach(v);
    m.feed(b("before"));
    assertThat(m.resize(30, 4)).isFalse();
    assertThat(m.resize(50, 6)).isTrue();
    m.feed(b("\r\nafter"));
    assertThat(v.log).containsExactly("start 30x4", "output 6", "resize 50x6", "output 7");
    assertThat(v.engine.snapshot()).isEqualTo(m.snapshot());
    m.detach(v);
    m.feed(b("unseen"));
    assertThat(v.log).hasSize(4);
    assertThat(m.viewerCount()).isZero();
  }

  @Test
  void aViewerJoiningWhileTheReaderFeedsMissesNothingAndSeesNothingTwice() throws Exception {
    ScreenMirror m = new ScreenMirror(20, 4);
    CountDownLatch fed = new CountDownLatch(1);
    Thread reader = new Thread(() -> {
      for (int i = 0; i < 20_000; i++) {
        m.feed(b(i + "\r\n"));
        if (i == 100) {
          fed.countDown();
        }
      }
    });
    reader.start();
    assertThat(fed.await(10, TimeUnit.SECONDS)).isTrue();
    Replay v = new Replay();
    m.attach(v);
    reader.join();
    assertThat(v.engine.snapshot()).isEqualTo(m.snapshot());
    assertThat(v.engine.snapshot().lines()).contains("19999");
  }
}
