package dev.agentdesk.terminal.session;

import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when told to: tests and capture replay drive timers with it. Thread-safe. */
public final class ManualClock implements SessionClock {
  private final AtomicLong now;

  public ManualClock(long startMillis) {
    this.now = new AtomicLong(startMillis);
  }

  @Override
  public long nowMillis() {
    return now.get();
  }

  /** Moves time forward; a negative step is refused because session clocks are monotonic. */
  public long advance(long millis) {
    if (millis < 0) {
      throw new IllegalArgumentException("a session clock never goes back (advance by " + millis + " ms)");
    }
    return now.addAndGet(millis);
  }

  /** Sets the time to {@code millis} if that is not earlier than now. */
  public void advanceTo(long millis) {
    now.accumulateAndGet(millis, Math::max);
  }
}
