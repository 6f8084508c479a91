package dev.agentdesk.bench.aci;

import dev.agentdesk.aci.runtime.AciRuntime;
import dev.agentdesk.aci.runtime.desktop.Rect;
import dev.agentdesk.aci.runtime.image.JpegEncoder;
import dev.agentdesk.aci.runtime.image.PngEncoder;
import dev.agentdesk.aci.runtime.image.RgbImage;
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
 * The screenshot pipeline split into its parts at two screen sizes, in-process: capture of an
 * unchanged screen (XDamage says nothing was drawn), frame hash, a full png encode (deflate level
 * 1, parallel strips, no strips to reuse) and jpeg q80 encode, and the wire encoding of the
 * resulting observation. {@link ScreenshotBenchmark} measures the whole verb.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class CaptureEncodeBenchmark {
  @Param({"1280x800", "1920x1080"})
  public String size;

  private BenchDesktop desktop;
  private X11Desktop x11;
  private AciRuntime runtime;
  private BenchClient client;
  private Rect screen;
  private RgbImage frame;
  private byte[] pngBytes;
  private final JpegEncoder jpeg = new JpegEncoder();

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    String[] wh = size.split("x");
    desktop = new BenchDesktop(Integer.parseInt(wh[0]), Integer.parseInt(wh[1]));
    x11 = X11Desktop.open(desktop.display());
    screen = x11.capture().screen();
    frame = x11.capture().capture(screen);
    pngBytes = new PngEncoder().encode(frame);
    System.out.println("png bytes at " + size + ": " + pngBytes.length + ", jpeg q80: " + jpeg.encode(frame, 80).length);
    runtime = AciRuntime.start(new AciRuntime.Options("127.0.0.1", 0, "bench", false, List.of(), desktop.display(),
        SessionLimits.defaults(), "bench"));
    client = new BenchClient(runtime.port(), "bench");
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    client.close();
    runtime.close();
    x11.close();
    desktop.close();
  }

  /**
   * A capture of a screen nothing was drawn on since the last capture: XDamage reports no
   * rectangle, so this is the damage round trip (what a not_modified answer costs at most).
   */
  @Benchmark
  public RgbImage captureUnchanged() {
    return x11.capture().capture(screen);
  }

  /** XXH3-128 over the frame; a fresh image each call, since an image caches its own hash. */
  @Benchmark
  public String frameHash() {
    return new RgbImage(frame.width(), frame.height(), frame.rgb()).frameHash();
  }

  /** A full PNG encode: a fresh encoder has no previous strips to reuse. */
  @Benchmark
  public byte[] encodePng() {
    return new PngEncoder().encode(frame);
  }

  @Benchmark
  public byte[] encodeJpegQ80() {
    return jpeg.encode(frame, 80);
  }

  /** The wire cost of a png observation: base64 of the encoded bytes plus the JSON text. */
  @Benchmark
  public String observationJson() {
    return dev.agentdesk.aci.wire.WireCodec.encode(dev.agentdesk.aci.wire.ObservationMsg.builder("obs-s").cause("s")
        .image(new dev.agentdesk.aci.wire.ObservationImage(java.util.Base64.getEncoder().encodeToString(pngBytes),
            frame.width(), frame.height(), null, dev.agentdesk.aci.wire.ImageFormat.PNG))
        .frameHash(frame.frameHash()).build());
  }
}
