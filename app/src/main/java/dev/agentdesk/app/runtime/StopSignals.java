package dev.agentdesk.app.runtime;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGTERM and SIGINT as a request to stop. The JVM's own handling of them runs the shutdown hooks
 * on a new thread while every other thread keeps going, which is how a hook and the main thread
 * once closed the same X display together; with these handlers the signal only wakes the thread
 * that owns the runtime, which stops it in order and exits 0. Uses {@code sun.misc.Signal} (module
 * {@code jdk.unsupported}, in every JDK 17) because the JDK has no public API for signals.
 */
public final class StopSignals implements AutoCloseable {
  private static final List<String> NAMES = List.of("TERM", "INT");

  private final Map<Signal, SignalHandler> previous = new LinkedHashMap<>();

  private StopSignals() {}

  /**
   * Routes SIGTERM and SIGINT to {@code onSignal} (run on the JVM's signal thread: keep it short).
   * A signal the VM reserves (-Xrs) keeps its default handling; one ignored since the process
   * started (a background job's SIGINT) stays ignored.
   */
  public static StopSignals install(Runnable onSignal) {
    StopSignals s = new StopSignals();
    for (String name : NAMES) {
      Signal sig = new Signal(name);
      try {
        s.previous.put(sig, Signal.handle(sig, received -> onSignal.run()));
      } catch (IllegalArgumentException | UnsupportedOperationException e) {
        // reserved by the VM or the OS: the JVM's default (shutdown hooks) applies
      }
    }
    return s;
  }

  /** Puts the previous handlers back (the runtime stopped; a later signal ends the JVM as usual). */
  @Override
  public void close() {
    previous.forEach(Signal::handle);
    previous.clear();
  }
}
