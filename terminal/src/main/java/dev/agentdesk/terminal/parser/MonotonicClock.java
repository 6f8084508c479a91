package dev.agentdesk.terminal.parser;

/**
 * Milliseconds on a clock that never goes back. Live sessions use {@link #system()}; a replay
 * drives a {@link ManualClock} from capture timestamps so timers fire without sleeping.
 */
@FunctionalInterface
public interface MonotonicClock {
  long nowMillis();

  /** The JVM's monotonic clock. */
  static MonotonicClock system() {
    return () -> System.nanoTime() / 1_000_000L;
  }
}
