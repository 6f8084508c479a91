package dev.agentdesk.bench.atspi;

import dev.agentdesk.aci.runtime.atspi.AtspiElement;
import dev.agentdesk.aci.runtime.atspi.AtspiEngine;
import dev.agentdesk.aci.runtime.atspi.AtspiSettings;
import dev.agentdesk.aci.runtime.atspi.Observation;
import dev.agentdesk.aci.runtime.atspi.ObserveRequest;
import dev.agentdesk.aci.runtime.atspi.StructuredObserver;
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
 * Latency of one structured {@code observe} of gtk3-widget-factory (about 150 showing elements,
 * 20 levels deep) over a real AT-SPI bus, with the event cache ({@code path=cached}, the
 * default) and without it ({@code path=uncached}: every accessible read on every observe, the
 * engine before the cache). Warm: an open session observing again (full tree, or a diff with
 * nothing changed; {@code warmFullAfterEdit}: a slider's value set just before, so one accessible
 * is dirty). Cold: a new engine, so the measurement includes finding the bus with
 * org.a11y.Bus.GetAddress, connecting, registering for events and the first walk.
 * Run: {@code ./bench aci-observe}.
 */
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
public class AtspiObserveBenchmark {

  static AtspiSettings settings(String path) {
    return BenchDesktop.settings().withEventCache(switch (path) {
      case "cached" -> true;
      case "uncached" -> false;
      default -> throw new IllegalArgumentException("path is cached or uncached, not " + path);
    });
  }

  @State(Scope.Benchmark)
  public static class Warm {
    @Param({"cached", "uncached"})
    public String path;

    AtspiEngine engine;
    StructuredObserver session;

    @Setup(Level.Trial)
    public void open() throws InterruptedException {
      engine = AtspiEngine.create(settings(path));
      session = engine.openSession();
      BenchDesktop.awaitFactory(session);
    }

    @TearDown(Level.Trial)
    public void close() {
      session.close();
      engine.close();
    }
  }

  /** A warm session whose slider moves before every observe. */
  @State(Scope.Benchmark)
  public static class Edited {
    @Param({"cached", "uncached"})
    public String path;

    AtspiEngine engine;
    StructuredObserver session;
    String slider;
    boolean high;

    @Setup(Level.Trial)
    public void open() throws InterruptedException {
      engine = AtspiEngine.create(settings(path));
      session = engine.openSession();
      Observation o = BenchDesktop.awaitFactory(session);
      slider = o.elements().stream()
          .filter(e -> e.role().equals("slider") && e.hasState("sensitive"))
          .map(AtspiElement::ref).findFirst().orElseThrow();
    }

    @Setup(Level.Invocation)
    public void edit() {
      high = !high;
      session.setValue(slider, high ? "70" : "30");
    }

    @TearDown(Level.Trial)
    public void close() {
      session.close();
      engine.close();
    }
  }

  @State(Scope.Benchmark)
  public static class Cold {
    @Param({"cached", "uncached"})
    public String path;

    @Setup(Level.Trial)
    public void ready() throws InterruptedException {
      try (AtspiEngine engine = AtspiEngine.create(settings(path))) {
        BenchDesktop.awaitFactory(engine);
      }
    }
  }

  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  @Warmup(iterations = 2, time = 2)
  @Measurement(iterations = 5, time = 2)
  public Observation warmFull(Warm w) {
    return w.session.observe(ObserveRequest.FULL);
  }

  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  @Warmup(iterations = 2, time = 2)
  @Measurement(iterations = 5, time = 2)
  public Observation warmDiff(Warm w) {
    return w.session.observe(new ObserveRequest(true, 0));
  }

  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  @Warmup(iterations = 2, time = 2)
  @Measurement(iterations = 5, time = 2)
  public Observation warmFullAfterEdit(Edited e) {
    return e.session.observe(ObserveRequest.FULL);
  }

  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @Warmup(iterations = 0)
  @Measurement(iterations = 12)
  public Observation coldFirstObserve(Cold c) {
    try (AtspiEngine engine = AtspiEngine.create(settings(c.path));
        StructuredObserver o = engine.openSession()) {
      return o.observe(ObserveRequest.FULL);
    }
  }
}
