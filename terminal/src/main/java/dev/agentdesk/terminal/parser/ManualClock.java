package dev.agentdesk.terminal.parser;

/** A clock moved by hand (replays and tests). */
public final class ManualClock implements MonotonicClock {
  private long now;

  public ManualClock(long startMillis) {
    this.now = startMillis;
  }

  @Override
  public long nowMillis() {
    return now;
  }

  /** Moves the clock to {@code millis}; earlier values are ignored so time never goes back. */
  public void advanceTo(long millis) {
    now = Math.max(now, millis);
  }

  public void advanceBy(long millis) {
    if (millis < 0) {
      throw new IllegalArgumentException("cannot go back in time: " + millis);
    }
    now += millis;
  }
}
