package dev.agentdesk.notify;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

final class Await {
  private Await() {}

  static void until(String what, BooleanSupplier condition) throws InterruptedException {
    until(what, Duration.ofSeconds(20), condition, () -> "");
  }

  static void until(String what, Duration limit, BooleanSupplier condition, Supplier<String> context)
      throws InterruptedException {
    long end = System.nanoTime() + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > end) {
        throw new AssertionError("timed out waiting for " + what + "\n" + context.get());
      }
      Thread.sleep(25);
    }
  }
}
