package dev.agentdesk.aci.recording;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.aci.client.AciClient;
import dev.agentdesk.aci.client.AciClientOptions;
import dev.agentdesk.aci.client.WindowInfo;
import dev.agentdesk.aci.runtime.AciRuntime;
import dev.agentdesk.aci.runtime.session.SessionLimits;
import dev.agentdesk.aci.wire.Action;
import dev.agentdesk.aci.wire.ImageFormat;
import dev.agentdesk.aci.wire.ObserveSpec;
import dev.agentdesk.aci.wire.Target;
import dev.agentdesk.testkit.XDisplay;
import dev.agentdesk.testkit.XvfbConfig;
import dev.agentdesk.testkit.XvfbExtension;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session recorded through the recording proxy in front of a real runtime on a real Xvfb with a
 * real xterm, then replayed against the same desktop (a fresh xterm: it matches), against a desktop
 * the first replay changed (it diverges, with both images), with its timing, and 1,000 actions.
 */
@ExtendWith(XvfbExtension.class)
@XvfbConfig(width = 480, height = 320)
class ProxyReplayTest {
  static final String TOKEN = "replay";
  static final ObserveSpec PNG = new ObserveSpec(null, ImageFormat.PNG, null, null);
  static final Replayer.Options FAST = new Replayer.Options(true, 0.0, Duration.ofSeconds(15),
      Path.of(System.getProperty("java.io.tmpdir"), "agentdesk-replay-report"));

  @TempDir
  static Path dir;

  private static AciRuntime runtime;
  private static String display;
  private static Process xterm;
  private final List<String> progress = new ArrayList<>();

  @BeforeAll
  static void start(XDisplay x) {
    display = x.name();
    runtime = AciRuntime.start(new AciRuntime.Options("127.0.0.1", 0, TOKEN, false, List.of(), display,
        SessionLimits.defaults(), "test"));
  }

  @AfterAll
  static void stop() {
    if (runtime != null) {
      runtime.close();
    }
  }

  @AfterEach
  void killXterm() throws InterruptedException {
    if (xterm != null) {
      xterm.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      xterm = null;
    }
  }

  static URI runtimeUri() {
    return URI.create("ws://127.0.0.1:" + runtime.port() + "/");
  }

  static AciClient connect(URI uri) {
    return AciClient.connect(uri, AciClientOptions.defaults().withToken(TOKEN).withCallTimeout(Duration.ofSeconds(15))
        .withValidateOutgoing(true));
  }

  /** A fresh xterm running cat in the top-left corner, shown and drawn: the same desktop every time. */
  static void freshXterm() throws Exception {
    if (xterm != null) {
      xterm.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
    }
    ProcessBuilder pb = new ProcessBuilder("xterm", "-title", "probe", "-geometry", "40x6+0+0", "-b", "0", "+sb",
        "-e", "cat").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
    pb.environment().put("DISPLAY", display);
    xterm = pb.start();
    try (AciClient c = connect(runtimeUri())) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
      while (c.listWindows().stream().map(WindowInfo::title).noneMatch("probe"::equals)) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("xterm did not map");
        }
        Thread.sleep(50);
      }
      // Drawn and still: two screenshots 300 ms apart agree.
      String before = "";
      String now = c.screenshot(PNG).observation().frameHash();
      while (!now.equals(before)) {
        Thread.sleep(300);
        before = now;
        now = c.screenshot(PNG).observation().frameHash();
      }
    }
  }

  /** Records an agent-like session through the proxy: look, type, look, press Return, look. */
  static Recording record(Path into) throws Exception {
    try (RecordingWriter w = RecordingWriter.open(into, RecordingWriter.Limits.defaults());
        RecordingProxy proxy = RecordingProxy.start("127.0.0.1", 0, runtimeUri(), w);
        AciClient c = connect(URI.create("ws://127.0.0.1:" + proxy.port() + "/"))) {
      // Each look waits for the xterm to redraw: a screenshot racing a redraw would differ run to run.
      c.move(new Target.PointPx(100, 40));
      c.waitMs(300);
      c.screenshot(PNG);
      c.typeText("abc");
      c.waitMs(300);
      c.screenshot(PNG);
      c.key("Return");
      c.waitMs(300);
      c.screenshot(new ObserveSpec(null, ImageFormat.JPEG, 80, 240));
      c.ping();
    }
    return Recording.open(into);
  }

  @Test
  void aRecordedSessionReplaysAgainstTheSameDesktopAndDivergesOnAnother() throws Exception {
    freshXterm();
    Recording rec = record(dir.resolve("session"));
    List<String> types = rec.entries().stream().filter(Recording.Entry::isMessage).map(Recording.Entry::type).toList();
    assertThat(types).startsWith("hello", "welcome").contains("action", "ack", "observation", "ping", "pong");
    assertThat(rec.entries().get(0).event()).isEqualTo("open");
    assertThat(rec.entries().get(rec.entries().size() - 1).event()).isEqualTo("close");

    freshXterm();
    ReplayReport same = Replayer.replay(rec, runtimeUri(), TOKEN, FAST, progress::add);
    assertThat(same.firstDivergence()).isNull();
    assertThat(same.sent()).isEqualTo(9);
    assertThat(same.observationsCompared()).isEqualTo(3);
    assertThat(progress).containsExactly("connection 1: 9 messages to send");

    // The first replay typed into this xterm again: its screen is not the recorded one now.
    Path report = dir.resolve("report");
    ReplayReport changed = Replayer.replay(rec, runtimeUri(), TOKEN,
        new Replayer.Options(true, 0.0, Duration.ofSeconds(15), report), s -> { });
    Divergence d = changed.firstDivergence();
    assertThat(d).isNotNull();
    assertThat(d.what()).matches("\\d+\\.\\d\\d% of pixels differ \\(threshold 0\\.00%\\), within \\d+,\\d+,\\d+,\\d+ of the image");
    assertThat(d.recordedImage()).exists();
    assertThat(d.replayedImage()).exists();
    assertThat(d.diffImage()).exists();
    assertThat(Files.readAllBytes(d.recordedImage())).isNotEqualTo(Files.readAllBytes(d.replayedImage()));
    // A threshold above what changed lets the same replay pass that comparison.
    freshXterm();
    Replayer.replay(rec, runtimeUri(), TOKEN, FAST, s -> { });
    ReplayReport lenient = Replayer.replay(rec, runtimeUri(), TOKEN,
        new Replayer.Options(true, 0.5, Duration.ofSeconds(15), report), s -> { });
    assertThat(lenient.matched()).isTrue();
  }

  @Test
  void withoutFastTheRecordedTimingIsKept() throws Exception {
    freshXterm();
    Recording rec = record(dir.resolve("timed"));
    List<Recording.Entry> sent = rec.entries().stream()
        .filter(e -> e.direction() == Direction.CLIENT_TO_RUNTIME && "action".equals(e.type())).toList();
    double span = sent.get(sent.size() - 1).tMs() - sent.get(0).tMs();
    freshXterm();
    long t0 = System.nanoTime();
    ReplayReport r = Replayer.replay(rec, runtimeUri(), TOKEN,
        new Replayer.Options(false, 0.0, Duration.ofSeconds(15), dir.resolve("r2")), s -> { });
    double took = (System.nanoTime() - t0) / 1e6;
    assertThat(r.matched()).as(String.valueOf(r.firstDivergence())).isTrue();
    assertThat(took).isGreaterThanOrEqualTo(span);
  }

  @Test
  void aThousandActionRecordingReplaysWithoutADivergence() throws Exception {
    Path into = dir.resolve("thousand");
    try (RecordingWriter w = RecordingWriter.open(into, RecordingWriter.Limits.defaults());
        RecordingProxy proxy = RecordingProxy.start("127.0.0.1", 0, runtimeUri(), w);
        AciClient c = connect(URI.create("ws://127.0.0.1:" + proxy.port() + "/"))) {
      for (int i = 0; i < 1000; i++) {
        switch (i % 4) {
          case 0 -> c.move(new Target.PointPx(300 + i % 100, 200 + i % 50));
          case 1 -> c.act(Action.click(new Target.PointPx(470, 310)).toBuilder().observe(PNG).build());
          case 2 -> c.key("shift");
          default -> c.screenshot(PNG);
        }
      }
    }
    Recording rec = Recording.open(into);
    ReplayReport r = Replayer.replay(rec, runtimeUri(), TOKEN, FAST, s -> { });
    assertThat(r.firstDivergence()).isNull();
    assertThat(r.sent()).isEqualTo(1000);
    assertThat(r.observationsCompared()).isEqualTo(500);
  }
}
