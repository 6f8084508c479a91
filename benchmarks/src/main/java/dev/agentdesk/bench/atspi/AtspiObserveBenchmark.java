package dev.agentdesk.bench.atspi;

import dev.agentdesk.aci.runtime.atspi.AtspiEngine;
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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Latency of one structured {@code observe} of gtk3-widget-factory (about 150 showing elements,
 * 20 levels deep) over a real AT-SPI bus. Warm: an open session observing again (full tree, or a
 * diff with nothing changed). Cold: a new engine, so the measurement includes finding the bus
 * with org.a11y.Bus.GetAddress, connecting, registering for events and the first walk.
 * Run: {@code ./bench aci-observe}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
public class AtspiObserveBenchmark {

  @State(Scope.Benchmark)
  public static class Warm {
    AtspiEngine engine;
    StructuredObserver session;

    @Setup(Level.Trial)
    public void open() throws InterruptedException {
      engine = AtspiEngine.create(BenchDesktop.settings());
      session = engine.openSession();
      BenchDesktop.awaitFactory(session);
    }

    @TearDown(Level.Trial)
    public void close() {
      session.close();
      engine.close();
    }
  }

  @State(Scope.Benchmark)
  public static class Cold {
    @Setup(Level.Trial)
    public void ready() throws InterruptedException {
      try (AtspiEngine engine = AtspiEngine.create(BenchDesktop.settings())) {
        BenchDesktop.awaitFactory(engine);
      }
    }
  }

  @Benchmark
  @Warmup(iterations = 2, time = 2)
  @Measurement(iterations = 5, time = 2)
  public Observation warmFull(Warm w) {
    return w.session.observe(ObserveRequest.FULL);
  }

  @Benchmark
  @Warmup(iterations = 2, time = 2)
  @Measurement(iterations = 5, time = 2)
  public Observation warmDiff(Warm w) {
    return w.session.observe(new ObserveRequest(true, 0));
  }

  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @Warmup(iterations = 0)
  @Measurement(iterations = 12)
  public Observation coldFirstObserve(Cold c) {
    try (AtspiEngine engine = AtspiEngine.create(BenchDesktop.settings());
        StructuredObserver o = engine.openSession()) {
      return o.observe(ObserveRequest.FULL);
    }
  }
}
