package dev.agentdesk.bench.atspi;

import dev.agentdesk.aci.runtime.atspi.AtspiEngine;
import dev.agentdesk.aci.runtime.atspi.AtspiSettings;
import dev.agentdesk.aci.runtime.atspi.Observation;
import dev.agentdesk.aci.runtime.atspi.ObserveRequest;
import dev.agentdesk.aci.runtime.atspi.StructuredObserver;
import java.util.concurrent.TimeUnit;

/**
 * The desktop the {@code aci-observe} suite script started (Xvfb, session bus, AT-SPI bus,
 * gtk3-widget-factory), reached through the environment the script exported.
 */
final class BenchDesktop {
  private BenchDesktop() {}

  static AtspiSettings settings() {
    AtspiSettings s = AtspiSettings.fromEnvironment(System.getenv());
    if (s.sessionBus().isEmpty()) {
      throw new IllegalStateException("DBUS_SESSION_BUS_ADDRESS is unset: run this through"
          + " ./bench aci-observe, which starts the desktop");
    }
    return s;
  }

  /** Observes until the widget factory's first page is on the bus (it registers lazily). */
  static Observation awaitFactory(StructuredObserver o) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    Observation ob = null;
    while (System.nanoTime() < deadline) {
      ob = o.observe(ObserveRequest.FULL);
      if (ob.elements().stream().filter(e -> e.role().equals("check box")).count() >= 6) {
        return ob;
      }
      Thread.sleep(200);
    }
    throw new IllegalStateException("gtk3-widget-factory did not appear on the a11y bus");
  }

  static void awaitFactory(AtspiEngine engine) throws InterruptedException {
    try (StructuredObserver o = engine.openSession()) {
      awaitFactory(o);
    }
  }
}
