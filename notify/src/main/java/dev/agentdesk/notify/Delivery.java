package dev.agentdesk.notify;

import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers notifications off the caller's thread: a PTY reader only ever does a bounded, non-
 * blocking hand-over. At most {@code capacity} deliveries are pending (queued or waiting for a
 * retry); beyond that a delivery is refused and counted. A failed attempt is logged with its
 * status and retried after {@code firstRetry}, doubling, up to {@code maxAttempts} tries; then it
 * is dropped and counted. One thread: a slow webhook delays the others but never a session.
 */
final class Delivery implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Delivery.class);

  private final int capacity;
  private final int maxAttempts;
  private final Duration firstRetry;
  private final ScheduledThreadPoolExecutor worker;
  private final AtomicInteger pending = new AtomicInteger();
  private final AtomicLong delivered = new AtomicLong();
  private final AtomicLong failedAttempts = new AtomicLong();
  private final AtomicLong dropped = new AtomicLong();
  private final AtomicLong droppedQueueFull = new AtomicLong();
  private volatile String lastFailure;

  Delivery(int capacity, int maxAttempts, Duration firstRetry) {
    if (capacity < 1 || maxAttempts < 1 || firstRetry.isNegative()) {
      throw new IllegalArgumentException("capacity and attempts must be positive, the retry delay not negative");
    }
    this.capacity = capacity;
    this.maxAttempts = maxAttempts;
    this.firstRetry = firstRetry;
    this.worker = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "agentdesk-notify-delivery");
      t.setDaemon(true);
      return t;
    });
    worker.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
  }

  /** Hands {@code n} to {@code sender}; never blocks. False when the queue was full (counted). */
  boolean submit(Sender sender, Notification n) {
    if (pending.incrementAndGet() > capacity) {
      pending.decrementAndGet();
      droppedQueueFull.incrementAndGet();
      lastFailure = sender.name() + ": queue full (" + capacity + " pending)";
      LOG.warn("notification {} to {} dropped: {} deliveries already pending", n.event().code(), sender.name(), capacity);
      return false;
    }
    try {
      worker.execute(() -> attempt(sender, n, 1));
    } catch (java.util.concurrent.RejectedExecutionException e) {
      pending.decrementAndGet(); // closed
      return false;
    }
    return true;
  }

  private void attempt(Sender sender, Notification n, int attempt) {
    try {
      sender.send(n);
      delivered.incrementAndGet();
      pending.decrementAndGet();
    } catch (Sender.Failure | RuntimeException e) {
      failedAttempts.incrementAndGet();
      boolean permanent = e instanceof Sender.Failure f && f.permanent;
      String why = e.getMessage() == null ? e.toString() : e.getMessage();
      lastFailure = sender.name() + ": " + why;
      if (permanent || attempt >= maxAttempts) {
        dropped.incrementAndGet();
        pending.decrementAndGet();
        LOG.warn("notification {} to {} dropped after {} {}: {}", n.event().code(), sender.name(), attempt,
            attempt == 1 ? "try" : "tries", why);
        return;
      }
      long delay = firstRetry.toMillis() << Math.min(attempt - 1, 20);
      LOG.warn("notification {} to {} failed (try {} of {}): {}; retrying in {} ms", n.event().code(), sender.name(),
          attempt, maxAttempts, why, delay);
      try {
        worker.schedule(() -> attempt(sender, n, attempt + 1), delay, TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.RejectedExecutionException closed) {
        pending.decrementAndGet();
      }
    }
  }

  DeliveryStats stats() {
    return new DeliveryStats(pending.get(), delivered.get(), failedAttempts.get(), dropped.get(), droppedQueueFull.get(),
        lastFailure);
  }

  /** Stops at once: what is still pending is not delivered (a stopping server has nobody to tell). */
  @Override
  public void close() {
    worker.shutdownNow();
  }
}
