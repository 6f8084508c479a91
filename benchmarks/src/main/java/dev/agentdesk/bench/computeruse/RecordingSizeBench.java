package dev.agentdesk.bench.computeruse;

import dev.agentdesk.aci.client.AciClient;
import dev.agentdesk.aci.client.AciClientOptions;
import dev.agentdesk.aci.recording.Recording;
import dev.agentdesk.aci.recording.RecordingProxy;
import dev.agentdesk.aci.recording.RecordingWriter;
import dev.agentdesk.aci.runtime.AciRuntime;
import dev.agentdesk.aci.runtime.session.SessionLimits;
import dev.agentdesk.aci.wire.Action;
import dev.agentdesk.aci.wire.ImageFormat;
import dev.agentdesk.aci.wire.ObserveSpec;
import dev.agentdesk.aci.wire.Target;
import dev.agentdesk.testkit.XvfbServer;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How big a recording grows: a 2 fps delta screencast of a 1280x800 Xvfb where an xterm receives a
 * keystroke every 0.5 s and a click with observe-after-act every 5 s, recorded through the
 * recording proxy for {@code -Dseconds=N} (default 120), and extrapolated to an hour. Run:
 * {@code ./bench recording}.
 */
public final class RecordingSizeBench {
  private RecordingSizeBench() {}

  public static void main(String[] args) throws Exception {
    int seconds = Integer.getInteger("seconds", 120);
    String token = "bench";
    try (XvfbServer x = XvfbServer.start(1280, 800)) {
      ProcessBuilder pb = new ProcessBuilder("xterm", "-geometry", "120x40+40+40", "+bc", "-e", "cat")
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
      pb.environment().put("DISPLAY", x.display().name());
      Process xterm = pb.start();
      Thread.sleep(1500);
      Path dir = Files.createTempDirectory("bench-recording").resolve("rec");
      AtomicLong frames = new AtomicLong();
      long actions = 0;
      try (AciRuntime runtime = AciRuntime.start(new AciRuntime.Options("127.0.0.1", 0, token, false, List.of(),
              x.display().name(), SessionLimits.defaults(), "bench"));
          RecordingWriter w = RecordingWriter.open(dir, new RecordingWriter.Limits(32L << 20, 4L << 30));
          RecordingProxy proxy = RecordingProxy.start("127.0.0.1", 0,
              URI.create("ws://127.0.0.1:" + runtime.port() + "/"), w);
          AciClient c = AciClient.connect(URI.create("ws://127.0.0.1:" + proxy.port() + "/"),
              AciClientOptions.defaults().withToken(token).withCallTimeout(Duration.ofSeconds(30)))) {
        c.onObservation(o -> {
          if (o.stream() != null) {
            frames.incrementAndGet();
          }
        });
        c.move(new Target.PointPx(300, 200));
        c.startScreencast(new ObserveSpec(null, ImageFormat.PNG, null, null), 2.0, true, null);
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        String alphabet = "the quick brown fox jumps over the lazy dog ";
        for (int i = 0; System.nanoTime() < end; i++) {
          if (i % 10 == 9) {
            c.act(Action.click(new Target.PointPx(300, 200)).toBuilder()
                .observe(new ObserveSpec(null, ImageFormat.PNG, null, 1024)).build());
          } else if (i % 60 == 59) {
            c.key("Return");
          } else {
            c.typeText(String.valueOf(alphabet.charAt(i % alphabet.length())));
          }
          actions++;
          Thread.sleep(500);
        }
        c.stopScreencast();
        long bytes = w.bytes();
        double perHour = bytes * 3600.0 / seconds;
        System.out.println("| measure | value |");
        System.out.println("| --- | ---: |");
        System.out.printf("| recorded | %d s of a 2 fps delta png screencast of 1280x800, %d actions (a keystroke every"
            + " 0.5 s, a click with observe-after-act every 5 s) |%n", seconds, actions);
        System.out.printf("| stream frames delivered | %,d |%n", frames.get());
        System.out.printf("| folder size | %,d bytes |%n", bytes);
        System.out.printf("| extrapolated to one hour | %.1f MB — target < 200 MB: %s |%n", perHour / 1e6,
            perHour < 200e6 ? "met" : "MISSED");
        xterm.destroyForcibly();
        Thread.sleep(300);
      }
      Recording rec = Recording.open(dir);
      System.out.printf("| lines / segments | %,d / %d |%n", rec.entries().size(), rec.segments());
    }
  }
}
