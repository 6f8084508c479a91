package dev.agentdesk.bench.aci;

import dev.agentdesk.aci.runtime.AciRuntime;
import dev.agentdesk.aci.runtime.session.SessionLimits;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Client-observed latency over a real WebSocket to a real runtime on a real Xvfb (1280x800):
 * ping, click, key, a not_modified screenshot, and one act + observe step (click, then a full
 * png screenshot) — the loop an agent runs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class AciRoundTripBenchmark {
  private static final String TOKEN = "bench";
  private BenchDesktop desktop;
  private AciRuntime runtime;
  private BenchClient client;
  private String notModified;
  private long n;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    desktop = new BenchDesktop(1280, 800);
    runtime = AciRuntime.start(new AciRuntime.Options("127.0.0.1", 0, TOKEN, false, List.of(), desktop.display(),
        SessionLimits.defaults(), "bench"));
    client = new BenchClient(runtime.port(), TOKEN);
    String shot = client.call("{\"type\":\"action\",\"call_id\":\"s\",\"action\":{\"verb\":\"screenshot\"}}");
    Matcher m = Pattern.compile("\"frame_hash\":\"([0-9a-f]{32})\"").matcher(shot);
    if (!m.find()) {
      throw new IllegalStateException("no frame_hash in " + shot.substring(0, Math.min(200, shot.length())));
    }
    notModified = "{\"type\":\"action\",\"call_id\":\"nm\",\"action\":{\"verb\":\"screenshot\",\"if_none_match\":\""
        + m.group(1) + "\"}}";
    if (!client.call(notModified).contains("\"not_modified\":true")) {
      throw new IllegalStateException("the bench desktop is not static: not_modified did not match");
    }
    String a = hashOf(actAndObserveChanging());
    String b = hashOf(actAndObserveChanging());
    String c = hashOf(actAndObserveChanging());
    if (a.equals(b) || b.equals(c)) {
      throw new IllegalStateException("alternating clicks did not change the screen: " + a + " " + b + " " + c);
    }
    // the focus moved (to the list, which has no caret): let GTK's transitions finish, then take
    // the not_modified reference from the screen as it is now
    Thread.sleep(1500);
    notModified = "{\"type\":\"action\",\"call_id\":\"nm\",\"action\":{\"verb\":\"screenshot\","
        + "\"if_none_match\":\"" + hashOf(client.call("{\"type\":\"action\",\"call_id\":\"s\","
        + "\"action\":{\"verb\":\"screenshot\"}}")) + "\"}}";
    if (!client.call(notModified).contains("\"not_modified\":true")) {
      throw new IllegalStateException("the screen keeps changing after the focus settled");
    }
  }

  private static String hashOf(String observation) {
    Matcher m = Pattern.compile("\"frame_hash\":\"([0-9a-f]{32})\"").matcher(observation);
    if (!m.find()) {
      throw new IllegalStateException("no frame_hash");
    }
    return m.group(1);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    client.close();
    runtime.close();
    desktop.close();
  }

  @Benchmark
  public String ping() throws InterruptedException {
    return client.call("{\"type\":\"ping\",\"t\":" + (n++) + "}");
  }

  /** A click on the bare root window (bottom-right corner), so the screen does not change. */
  @Benchmark
  public String click() throws InterruptedException {
    return client.call("{\"type\":\"action\",\"call_id\":\"c\",\"action\":{\"verb\":\"click\","
        + "\"target\":{\"kind\":\"point_px\",\"x\":1270,\"y\":790}}}");
  }

  @Benchmark
  public String key() throws InterruptedException {
    return client.call("{\"type\":\"action\",\"call_id\":\"k\",\"action\":{\"verb\":\"key\",\"keys\":\"shift\"}}");
  }

  @Benchmark
  public String notModifiedScreenshot() throws InterruptedException {
    return client.call(notModified);
  }

  /**
   * An act that changes the screen every time: clicks alternate between the two GTK windows, so
   * focus (and the windows' focused/backdrop rendering) moves and every screenshot is a new frame
   * that must be encoded.
   */
  @Benchmark
  public String actAndObserveChanging() throws InterruptedException {
    int x = (n++ & 1) == 0 ? 640 : 230;
    client.call("{\"type\":\"action\",\"call_id\":\"c\",\"action\":{\"verb\":\"click\","
        + "\"target\":{\"kind\":\"point_px\",\"x\":" + x + ",\"y\":400}}}");
    return client.call("{\"type\":\"action\",\"call_id\":\"s\",\"action\":{\"verb\":\"screenshot\"}}");
  }

  /** Click where nothing reacts (the bare root), then a png screenshot of the unchanged screen. */
  @Benchmark
  public String actAndObserve() throws InterruptedException {
    client.call("{\"type\":\"action\",\"call_id\":\"c\",\"action\":{\"verb\":\"click\","
        + "\"target\":{\"kind\":\"point_px\",\"x\":1270,\"y\":790}}}");
    return client.call("{\"type\":\"action\",\"call_id\":\"s\",\"action\":{\"verb\":\"screenshot\"}}");
  }
}
