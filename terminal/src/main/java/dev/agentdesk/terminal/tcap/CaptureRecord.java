package dev.agentdesk.terminal.tcap;

import java.util.Arrays;
import java.util.Objects;

/** One captured chunk: its direction, when it happened (µs since the start) and its bytes. */
public record CaptureRecord(Direction direction, long elapsedMicros, byte[] payload) {
  public CaptureRecord {
    Objects.requireNonNull(direction, "direction");
    Objects.requireNonNull(payload, "payload");
    if (elapsedMicros < 0) {
      throw new IllegalArgumentException("elapsedMicros must not be negative: " + elapsedMicros);
    }
  }

  /** Milliseconds since the start of the capture (rounded down). */
  public long elapsedMillis() {
    return elapsedMicros / 1000;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CaptureRecord r && r.direction == direction && r.elapsedMicros == elapsedMicros
        && Arrays.equals(r.payload, payload);
  }

  @Override
  public int hashCode() {
    return Objects.hash(direction, elapsedMicros, Arrays.hashCode(payload));
  }

  @Override
  public String toString() {
    return "CaptureRecord[" + direction + " @" + elapsedMicros + "us, " + payload.length + " bytes]";
  }
}
