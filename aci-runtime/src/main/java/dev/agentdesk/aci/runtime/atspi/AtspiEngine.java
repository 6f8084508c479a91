package dev.agentdesk.aci.runtime.atspi;

import dev.agentdesk.aci.runtime.atspi.StructuredObservationException.Kind;
import dev.agentdesk.aci.runtime.atspi.internal.A11yBus;
import dev.agentdesk.aci.runtime.atspi.internal.BusCallException;
import dev.agentdesk.aci.runtime.atspi.internal.BusLocator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The AT-SPI structured-observation engine of one runtime: owns the accessibility-bus
 * connection (opened lazily on the first observe, reopened after it drops) and hands out one
 * {@link StructuredObserver} per ACI session. A runtime without a reachable bus still creates the
 * engine; observes then fail with a typed {@code AT-SPI bus unavailable} error.
 */
public final class AtspiEngine implements AutoCloseable {
  private final AtspiSettings settings;
  private A11yBus bus;
  private boolean closed;

  private AtspiEngine(AtspiSettings settings) {
    this.settings = settings;
  }

  public static AtspiEngine create(AtspiSettings settings) {
    return new AtspiEngine(settings);
  }

  /** An engine configured from this process's environment. */
  public static AtspiEngine fromEnvironment() {
    return create(AtspiSettings.fromEnvironment(System.getenv()));
  }

  public AtspiSettings settings() {
    return settings;
  }

  public WalkLimits limits() {
    return settings.limits();
  }

  public StructuredObserver openSession() {
    return new AtspiSession(this);
  }

  /** The connected accessibility bus, connecting within {@code deadlineNanos} if needed. */
  synchronized A11yBus bus(long deadlineNanos) {
    if (closed) {
      throw StructuredObservationException.busUnavailable("the engine is closed", null);
    }
    if (bus != null && bus.isConnected()) {
      return bus;
    }
    if (bus != null) {
      bus.close();
      bus = null;
    }
    long perCallMs = settings.limits().perCall().toMillis();
    CompletableFuture<A11yBus> connecting = CompletableFuture.supplyAsync(() -> {
      try {
        String address = BusLocator.a11yAddress(settings.a11yBus(), settings.sessionBus(),
            perCallMs);
        A11yBus b;
        try {
          b = A11yBus.connect(address);
        } catch (Exception e) {
          throw new IllegalStateException(new BusLocator.Unavailable(
              "cannot connect to the accessibility bus " + address + ": " + e.getMessage(), e));
        }
        try {
          b.watchChangeEvents(perCallMs * 4);
        } catch (BusCallException e) {
          b.close();
          throw new IllegalStateException(new BusLocator.Unavailable(
              "the accessibility bus at " + address + " has no working AT-SPI registry ("
                  + e.getMessage() + ")", e));
        }
        return b;
      } catch (BusLocator.Unavailable e) {
        throw new IllegalStateException(e);
      }
    });
    long waitNanos = Math.max(1, deadlineNanos - System.nanoTime());
    try {
      bus = connecting.get(waitNanos, TimeUnit.NANOSECONDS);
      return bus;
    } catch (TimeoutException e) {
      connecting.thenAccept(A11yBus::close);
      throw new StructuredObservationException(Kind.TIMEOUT,
          StructuredObservationException.OBSERVE_FAILED_PREFIX
              + "AT-SPI bus unavailable: connecting timed out after "
              + TimeUnit.NANOSECONDS.toMillis(waitNanos) + "ms");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw StructuredObservationException.busUnavailable("interrupted while connecting", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      while ((cause instanceof IllegalStateException || cause instanceof java.util.concurrent.CompletionException)
          && cause.getCause() != null) {
        cause = cause.getCause();
      }
      throw StructuredObservationException.busUnavailable(
          cause.getMessage() == null ? cause.toString() : cause.getMessage(), cause);
    }
  }

  /**
   * Walks since the current connection opened: {@code [full, cached]} — the ones that read every
   * accessible (first walk, after lost events or an incomplete walk) and the ones that took
   * unchanged accessibles from the event cache. {@code [0, 0]} before a connection.
   */
  synchronized long[] walkCounts() {
    return bus == null ? new long[2] : bus.cache().walkCounts();
  }

  /** Drops a connection that failed mid-call so the next observe reconnects. */
  synchronized void dropConnection(A11yBus failed) {
    if (bus == failed && bus != null) {
      bus.close();
      bus = null;
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (bus != null) {
      bus.close();
      bus = null;
    }
  }
}
