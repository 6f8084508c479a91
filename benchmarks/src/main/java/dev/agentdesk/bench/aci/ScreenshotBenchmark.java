package dev.agentdesk.bench.aci;

import dev.agentdesk.aci.runtime.AciRuntime;
import dev.agentdesk.aci.runtime.desktop.Rect;
import dev.agentdesk.aci.runtime.session.SessionLimits;
import dev.agentdesk.aci.runtime.x11.X11Desktop;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The whole screenshot verb as a client sees it (capture + hash + encode + base64 + JSON +
 * WebSocket) on a screen that changed since the measuring session's previous screenshot, so every
 * measured call encodes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class ScreenshotBenchmark {
  @Param({"1280x800", "1920x1080"})
  public String size;

  private BenchDesktop desktop;
  private AciRuntime runtime;
  private BenchClient client;
  private BenchClient changer;
  private Rect screen;
  private String lastHash = "";
  private long clicks;
  private final int[][] targets = new int[2][];

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    String[] wh = size.split("x");
    desktop = new BenchDesktop(Integer.parseInt(wh[0]), Integer.parseInt(wh[1]));
    try (X11Desktop x11 = X11Desktop.open(desktop.display())) {
      screen = x11.capture().screen();
      // click targets from the real layout: the list's centre, and a point of the text window the
      // list does not cover (where GTK places the two windows depends on the screen size)
      Rect text = bounds(x11, "bench text");
      Rect list = bounds(x11, "bench list");
      targets[0] = new int[] {list.x() + list.w() / 2, list.y() + list.h() / 2};
      int inset = 30;
      for (int[] p : new int[][] {{text.x() + inset, text.y() + text.h() - inset},
          {text.x() + text.w() - inset, text.y() + text.h() - inset}, {text.x() + inset, text.y() + inset},
          {text.x() + text.w() - inset, text.y() + inset}}) {
        if (!inside(list, p[0], p[1])) {
          targets[1] = p;
          break;
        }
      }
      if (targets[1] == null) {
        throw new IllegalStateException("the list window covers the text window: " + text + " " + list);
      }
    }
    runtime = AciRuntime.start(new AciRuntime.Options("127.0.0.1", 0, "bench", false, List.of(), desktop.display(),
        SessionLimits.defaults(), "bench"));
    client = new BenchClient(runtime.port(), "bench");
    changer = new BenchClient(runtime.port(), "bench");
  }

  /**
   * Before every measured call (outside the timing): move the focus between the two GTK windows
   * through a second session and wait until the screen shows it, so that each measured screenshot
   * is a new frame that must be encoded — the measuring session's last frame is always the other
   * focus state, so its encode cache never hits.
   */
  @Setup(Level.Invocation)
  public void changeScreen() throws InterruptedException {
    try {
      awaitChangedScreen();
    } catch (RuntimeException | InterruptedException e) {
      // JMH skips the trial's tear-down after a failed setup, and the runtime's threads then keep
      // the fork alive until JMH halts it (no shutdown hooks): stop the desktop here.
      tearDown();
      throw e;
    }
  }

  private void awaitChangedScreen() throws InterruptedException {
    String r = "";
    for (int attempt = 0; attempt < 5; attempt++) {
      // the list window sits in the middle; the text window's left part is free of it
      int[] p = targets[(int) (clicks & 1)];
      if ((clicks & 1) == 0) {
        // a different list row each time: two presses on one row within GTK's double-click time
        // activate it, and zenity --list then exits (seen at 1920x1080, where a round is faster)
        p = new int[] {p[0], p[1] + (int) ((clicks / 2) % 3 - 1) * 30};
      }
      clicks++;
      changer.call("{\"type\":\"action\",\"call_id\":\"c\",\"action\":{\"verb\":\"click\","
          + "\"target\":{\"kind\":\"point_px\",\"x\":" + p[0] + ",\"y\":" + p[1] + "}}}");
      for (int i = 0; i < 40; i++) {
        r = changer.call("{\"type\":\"action\",\"call_id\":\"w\",\"action\":{\"verb\":\"screenshot\","
            + "\"if_none_match\":\"" + lastHash + "\"}}");
        int h = r.indexOf("\"frame_hash\":\"");
        String hash = r.substring(h + 14, h + 46);
        if (!r.contains("\"not_modified\":true") && !hash.equals(lastHash)) {
          lastHash = hash;
          return;
        }
        Thread.sleep(5);
      }
    }
    String truth;
    try (X11Desktop plain = X11Desktop.open(desktop.display(), false)) {
      truth = plain.capture().capture(plain.capture().screen()).frameHash();
    }
    throw new IllegalStateException("five clicks did not change the screen; last reply: "
        + r.substring(0, Math.min(300, r.length())) + " ; full XGetImage read hashes " + truth + " ; apps: "
        + desktop.appsState());
  }

  private static Rect bounds(X11Desktop x11, String title) {
    return x11.windows().list().stream().filter(w -> w.title().equals(title)).findFirst()
        .orElseThrow(() -> new IllegalStateException("no window titled " + title)).bounds();
  }

  private static boolean inside(Rect r, int x, int y) {
    return x >= r.x() && y >= r.y() && x < r.x() + r.w() && y < r.y() + r.h();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    changer.close();
    client.close();
    runtime.close();
    desktop.close();
  }

  @Benchmark
  public String screenshotPng() throws InterruptedException {
    return client.call("{\"type\":\"action\",\"call_id\":\"s\",\"action\":{\"verb\":\"screenshot\"}}");
  }

  @Benchmark
  public String screenshotJpegQ80() throws InterruptedException {
    return client.call("{\"type\":\"action\",\"call_id\":\"s\",\"action\":{\"verb\":\"screenshot\","
        + "\"format\":\"jpeg\",\"quality\":80}}");
  }
}
