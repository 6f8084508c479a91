package dev.agentdesk.bench.recording;

import dev.agentdesk.aci.client.AciClient;
import dev.agentdesk.aci.client.AciClientOptions;
import dev.agentdesk.aci.client.StreamCompositor;
import dev.agentdesk.aci.recording.Playback;
import dev.agentdesk.aci.recording.Recording;
import dev.agentdesk.aci.recording.RecordingProxy;
import dev.agentdesk.aci.recording.RecordingWriter;
import dev.agentdesk.aci.runtime.AciRuntime;
import dev.agentdesk.aci.runtime.session.SessionLimits;
import dev.agentdesk.aci.wire.ImageFormat;
import dev.agentdesk.aci.wire.ObservationMsg;
import dev.agentdesk.aci.wire.ObserveSpec;
import dev.agentdesk.aci.wire.Target;
import dev.agentdesk.aci.wire.WireCodec;
import dev.agentdesk.testkit.XvfbServer;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import javax.imageio.ImageIO;

/**
 * Scrubbing a recording: records {@code -Dseconds=N} (default 60) of a 5 fps delta png screencast
 * of a 1280x800 Xvfb with an xterm receiving a keystroke every 100 ms (a keyframe every 30
 * frames) into {@code ARGS[0]/scrub}, then asks {@link Playback} for the screen at 150 random
 * distinct frame steps in one open recording, as scrubbing does, beside the peer: the SDK's
 * {@link StreamCompositor} fed from the frame's keyframe (what a player without a cache or index
 * has to do) plus the same png encode. Prints a markdown table; the suite's browser half uses the
 * recording afterwards. Run: {@code ./bench recording-playback}.
 */
public final class PlaybackScrubBench {
  private PlaybackScrubBench() {}

  public static void main(String[] args) throws Exception {
    int seconds = Integer.getInteger("seconds", 60);
    Path root = Path.of(args[0]);
    Path dir = root.resolve("scrub");
    String token = "bench";
    try (XvfbServer x = XvfbServer.start(1280, 800)) {
      ProcessBuilder pb = new ProcessBuilder("xterm", "-geometry", "120x40+40+40", "+bc", "-e", "cat")
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
      pb.environment().put("DISPLAY", x.display().name());
      Process xterm = pb.start();
      Thread.sleep(1500);
      try (AciRuntime runtime = AciRuntime.start(new AciRuntime.Options("127.0.0.1", 0, token, false, List.of(),
              x.display().name(), SessionLimits.defaults(), "bench"));
          RecordingWriter w = RecordingWriter.open(dir, RecordingWriter.Limits.defaults());
          RecordingProxy proxy = RecordingProxy.start("127.0.0.1", 0,
              URI.create("ws://127.0.0.1:" + runtime.port() + "/"), w);
          AciClient c = AciClient.connect(URI.create("ws://127.0.0.1:" + proxy.port() + "/"),
              AciClientOptions.defaults().withToken(token).withCallTimeout(Duration.ofSeconds(30)))) {
        c.screenSize();
        c.move(new Target.PointPx(300, 200));
        c.startScreencast(new ObserveSpec(null, ImageFormat.PNG, null, null), 5.0, true, null);
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        String text = "the quick brown fox jumps over the lazy dog ";
        for (int i = 0; System.nanoTime() < end; i++) {
          if (i % 100 == 99) {
            c.key("Return");
          } else {
            c.typeText(String.valueOf(text.charAt(i % text.length())));
          }
          Thread.sleep(100);
        }
        c.stopScreencast();
      } finally {
        xterm.destroyForcibly();
      }
    }
    Recording rec = Recording.open(dir);
    Playback p = Playback.of(rec);
    List<Integer> frames = new ArrayList<>();
    int deltas = 0;
    for (Playback.Step s : p.steps()) {
      if (s.frame() == s.index()) {
        frames.add(s.index());
        deltas += s.observation().kind() == Playback.ObservationKind.DELTA ? 1 : 0;
      }
    }
    Collections.shuffle(frames, new Random(42));
    List<Integer> sample = frames.subList(0, Math.min(150, frames.size()));
    double[] ours = new double[sample.size()];
    for (int i = 0; i < sample.size(); i++) {
      long t0 = System.nanoTime();
      p.frame(sample.get(i));
      ours[i] = (System.nanoTime() - t0) / 1e6;
    }
    double[] peer = new double[sample.size()];
    for (int i = 0; i < sample.size(); i++) {
      long t0 = System.nanoTime();
      fromKeyframe(rec, p, sample.get(i));
      peer[i] = (System.nanoTime() - t0) / 1e6;
    }
    double[] step = new double[Math.min(200, frames.size())];
    Playback fresh = Playback.of(rec);
    List<Integer> inOrder = new ArrayList<>(frames);
    Collections.sort(inOrder);
    for (int i = 0; i < step.length; i++) {
      long t0 = System.nanoTime();
      fresh.frame(inOrder.get(i));
      step[i] = (System.nanoTime() - t0) / 1e6;
    }
    Playback.Summary s = p.summary();
    System.out.printf("Recording: %d s of a 5 fps delta png screencast of 1280x800 (xterm, a keystroke every 100 ms): %d steps,"
        + " %d frames (%d deltas), %,d bytes. %d random distinct frame steps asked of one open recording.%n%n",
        seconds, s.steps(), s.frames(), deltas, s.bytes(), sample.size());
    System.out.println("| screen at a step (server, in process) | median | p90 |");
    System.out.println("| --- | ---: | ---: |");
    System.out.printf("| `Playback.frame`, random steps (cache and keyframe index) | %.2f ms | %.2f ms |%n", q(ours, .5), q(ours, .9));
    System.out.printf("| peer: SDK `StreamCompositor` from the frame's keyframe + png encode | %.2f ms | %.2f ms |%n", q(peer, .5),
        q(peer, .9));
    System.out.printf("| `Playback.frame`, stepping forward through the first %d frames | %.2f ms | %.2f ms |%n", step.length,
        q(step, .5), q(step, .9));
    System.out.printf("%nRandom access against the peer: %.1fx faster at the median, %.1fx at p90.%n", q(peer, .5) / q(ours, .5),
        q(peer, .9) / q(ours, .9));
  }

  /** What a player without an index or cache does: compose the chain from its keyframe, then encode. */
  private static void fromKeyframe(Recording rec, Playback p, int step) throws Exception {
    int key = step;
    String stream = p.steps().get(step).observation().stream();
    if (stream == null) {
      rec.frame(rec.entries().get(step).message().path("image").path("ref").asText());
      return;
    }
    while (p.steps().get(key).observation().kind() != Playback.ObservationKind.KEYFRAME) {
      key--;
      while (p.steps().get(key).observation() == null || !stream.equals(p.steps().get(key).observation().stream())) {
        key--;
      }
    }
    StreamCompositor sc = new StreamCompositor();
    StreamCompositor.Frame f = null;
    for (int i = key; i <= step; i++) {
      Playback.Observation o = p.steps().get(i).observation();
      if (o != null && stream.equals(o.stream())) {
        f = sc.apply((ObservationMsg) WireCodec.decode(rec.withImages(rec.entries().get(i).message())));
      }
    }
    // The same encoder settings as Playback's (deflate level 2), so only the composing differs.
    javax.imageio.ImageWriter writer = ImageIO.getImageWritersByFormatName("png").next();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (var imageOut = new javax.imageio.stream.MemoryCacheImageOutputStream(out)) {
      writer.setOutput(imageOut);
      javax.imageio.ImageWriteParam param = writer.getDefaultWriteParam();
      param.setCompressionMode(javax.imageio.ImageWriteParam.MODE_EXPLICIT);
      param.setCompressionQuality(0.75f);
      writer.write(null, new javax.imageio.IIOImage(f.image(), null, null), param);
    } finally {
      writer.dispose();
    }
  }

  private static double q(double[] v, double p) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s[Math.min(s.length - 1, (int) Math.round(p * (s.length - 1)))];
  }
}
