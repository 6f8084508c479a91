package dev.agentdesk.terminal.session;

/**
 * Monotonic milliseconds for a session's timers (idle, silence, echo and resize windows). Live
 * sessions use {@link #system()}; tests and capture replay use a {@link ManualClock} so timer logic
 * runs without sleeping.
 */
@FunctionalInterface
public interface SessionClock {
  /** Milliseconds on a monotonic scale; only differences are meaningful. */
  long nowMillis();

  /** The JVM's monotonic clock ({@link System#nanoTime()}), never affected by wall-clock changes. */
  static SessionClock system() {
    return () -> System.nanoTime() / 1_000_000L;
  }
}
