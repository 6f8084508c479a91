package dev.agentdesk.bench.aci;

import dev.agentdesk.aci.client.AciClient;
import dev.agentdesk.aci.client.AciClientOptions;
import dev.agentdesk.aci.client.WindowInfo;
import dev.agentdesk.aci.runtime.AciRuntime;
import dev.agentdesk.aci.runtime.session.SessionLimits;
import dev.agentdesk.aci.wire.BinaryFrames;
import dev.agentdesk.aci.wire.ImageFormat;
import dev.agentdesk.aci.wire.ObservationMsg;
import dev.agentdesk.aci.wire.ObserveSpec;
import dev.agentdesk.aci.wire.WireCodec;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./bench aci-stream}: what a 30 fps png screencast costs on the wire while someone types
 * into a real terminal (xterm over the busy GTK desktop of the {@code aci} suite, 1280x800 Xvfb).
 * The same typing script runs once against a full-frame stream and once against a delta stream.
 * Every frame is received on a binary session; its size as a binary message and as the base64 JSON
 * text a text session would get are both computed with the codec the runtime uses, so the two
 * framings are compared on exactly the same frames. Not a JMH benchmark: it measures bytes and
 * frame rates of a live stream, not the latency of a call. Prints a markdown section.
 */
public final class AciStreamBench {
  static final int WIDTH = 1280;
  static final int HEIGHT = 800;
  static final long TYPING_MS = 8_000;
  static final long KEY_EVERY_MS = 50;
  static final String TOKEN = "stream-bench";
  static final ObserveSpec PNG = new ObserveSpec(null, ImageFormat.PNG, null, null);

  private AciStreamBench() {}

  /** One stream's frames, measured. */
  record Run(String mode, int frames, double seconds, long keyframes, long binaryBytes, long textBytes,
      long deltaBinaryBytes, long deltaFrames, long tiles) {
    double fps() {
      return frames / seconds;
    }

    double perFrame(long bytes) {
      return frames == 0 ? 0 : (double) bytes / frames;
    }
  }

  public static void main(String[] args) throws Exception {
    double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    List<Run> runs = new ArrayList<>();
    int chars;
    try (BenchDesktop desktop = new BenchDesktop(WIDTH, HEIGHT);
        AciRuntime runtime = AciRuntime.start(new AciRuntime.Options("127.0.0.1", 0, TOKEN, false, List.of(),
            desktop.display(), SessionLimits.defaults(), "bench"))) {
      Process term = xterm(desktop.display());
      try (AciClient c = AciClient.connect(URI.create("ws://127.0.0.1:" + runtime.port() + "/"),
          AciClientOptions.defaults().withToken(TOKEN).withBinaryFrames(true).withCallTimeout(Duration.ofSeconds(30)))) {
        WindowInfo w = window(c, "bench-term");
        c.activateWindow(w.id());
        Thread.sleep(500);
        chars = (int) (TYPING_MS / KEY_EVERY_MS);
        runs.add(run(c, false));
        runs.add(run(c, true));
      } finally {
        term.destroyForcibly();
      }
    }
    double loadAfter = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    print(runs, chars, loadBefore, loadAfter);
  }

  private static Process xterm(String display) throws IOException {
    ProcessBuilder pb = new ProcessBuilder("xterm", "-title", "bench-term", "-geometry", "100x30+60+60", "+bc",
        "-e", "cat").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
    pb.environment().put("DISPLAY", display);
    return pb.start();
  }

  private static WindowInfo window(AciClient c, String title) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (System.nanoTime() < deadline) {
      for (WindowInfo w : c.listWindows()) {
        if (w.title().equals(title)) {
          return w;
        }
      }
      Thread.sleep(100);
    }
    throw new IllegalStateException("xterm did not map a window titled " + title);
  }

  /** One 30 fps png stream while the typing script runs; the first (initial keyframe) frame is not counted. */
  private static Run run(AciClient c, boolean delta) throws InterruptedException {
    List<ObservationMsg> frames = new CopyOnWriteArrayList<>();
    String[] stream = new String[1];
    c.onObservation(o -> {
      if (o.stream() != null && o.stream().equals(stream[0])) {
        frames.add(o);
      }
    });
    stream[0] = "pending";
    String id = c.startScreencast(PNG, 30.0, delta, null);
    stream[0] = id;
    Thread.sleep(1500); // the initial keyframe (its frames may predate stream[0]; none counted)
    frames.clear();
    long start = System.nanoTime();
    String line = "the quick brown fox jumps over the lazy dog 0123456789 ";
    for (int i = 0; i * KEY_EVERY_MS < TYPING_MS; i++) {
      long due = start + TimeUnit.MILLISECONDS.toNanos(i * KEY_EVERY_MS);
      long wait = due - System.nanoTime();
      if (wait > 0) {
        TimeUnit.NANOSECONDS.sleep(wait);
      }
      c.typeText(i % 60 == 59 ? "\n" : String.valueOf(line.charAt(i % line.length())));
    }
    Thread.sleep(500); // the last keystroke's frame
    double seconds = (System.nanoTime() - start) / 1e9;
    c.stopScreencast();
    List<ObservationMsg> got = new ArrayList<>(frames);
    long bin = 0;
    long text = 0;
    long keys = 0;
    long deltaBin = 0;
    long deltaFrames = 0;
    long tiles = 0;
    for (ObservationMsg o : got) {
      long b = BinaryFrames.encode(BinaryFrames.fromObservation(o)).length;
      bin += b;
      text += WireCodec.encode(o).getBytes(StandardCharsets.UTF_8).length;
      if (o.image() != null) {
        keys++;
      } else {
        deltaBin += b;
        deltaFrames++;
        tiles += o.tiles().size();
      }
    }
    return new Run(delta ? "delta" : "full", got.size(), seconds, keys, bin, text, deltaBin, deltaFrames, tiles);
  }

  private static void print(List<Run> runs, int chars, double loadBefore, double loadAfter) {
    Run full = runs.get(0);
    Run delta = runs.get(1);
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "Typing into xterm (100x30, over the `aci` suite's GTK desktop) on a %dx%d"
        + " Xvfb: %d keystrokes, one every %d ms, while a 30 fps png screencast runs; the same script once with full"
        + " frames, once with `delta`. Frames are received on a binary session; the text size is the same frame as"
        + " base64 JSON. The first (initial) keyframe is not counted. Load average %.1f before, %.1f after, on %d"
        + " cores.%n%n", WIDTH, HEIGHT, chars, KEY_EVERY_MS, loadBefore, loadAfter,
        Runtime.getRuntime().availableProcessors()));
    out.append("| stream | frames | fps | keyframes | bytes/frame binary | bytes/frame text | binary saves |\n");
    out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for (Run r : runs) {
      out.append(String.format(Locale.ROOT, "| %s | %d | %.1f | %d | %.0f | %.0f | %.1f%% |%n", r.mode(), r.frames(),
          r.fps(), r.keyframes(), r.perFrame(r.binaryBytes()), r.perFrame(r.textBytes()),
          100.0 * (r.textBytes() - r.binaryBytes()) / Math.max(1, r.textBytes())));
    }
    out.append('\n');
    double ratio = full.perFrame(full.binaryBytes()) / Math.max(1, delta.perFrame(delta.binaryBytes()));
    double deltaOnly = delta.deltaFrames() == 0 ? 0
        : full.perFrame(full.binaryBytes()) / ((double) delta.deltaBinaryBytes() / delta.deltaFrames());
    out.append(String.format(Locale.ROOT, "- delta vs full, bytes per frame (binary, periodic keyframes included):"
        + " %.1fx smaller (target ≥ 10x — %s); delta frames alone: %.1fx smaller, %.1f tiles per frame.%n",
        ratio, ratio >= 10 ? "met" : "MISSED", deltaOnly,
        delta.deltaFrames() == 0 ? 0 : (double) delta.tiles() / delta.deltaFrames()));
    long bin = full.binaryBytes() + delta.binaryBytes();
    long text = full.textBytes() + delta.textBytes();
    double saving = 100.0 * (text - bin) / Math.max(1, text);
    out.append(String.format(Locale.ROOT, "- binary vs base64 text framing, all frames of both streams: %d vs %d bytes,"
        + " binary %.1f%% smaller (target ≥ 25%% — %s). Base64 makes the image bytes 4/3 as long, so binary can"
        + " save at most 25%% of a frame minus its JSON header share; the header is a larger share of small delta"
        + " frames.%n", bin, text, saving, saving >= 25 ? "met" : "MISSED"));
    out.append(String.format(Locale.ROOT, "- fps is frames delivered per second of typing: a frame per screen change,"
        + " at most 30; %d keystrokes in %.1f s is %.0f changes/s.%n", chars, full.seconds(), chars / full.seconds()));
    System.out.print(out);
  }
}
