package dev.agentdesk.reliability;

import java.util.Arrays;

/** Collected latencies in nanoseconds; percentiles on demand. Thread-confined: merge per-thread instances. */
final class Latencies {
  private long[] values = new long[1024];
  private int size;

  void add(long nanos) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = nanos;
  }

  synchronized void addAll(Latencies other) {
    for (int i = 0; i < other.size; i++) {
      add(other.values[i]);
    }
  }

  int count() {
    return size;
  }

  /** The p-th percentile in milliseconds (p in 0..100). */
  double percentileMillis(double p) {
    if (size == 0) {
      return Double.NaN;
    }
    long[] sorted = Arrays.copyOf(values, size);
    Arrays.sort(sorted);
    int i = (int) Math.min(size - 1, Math.ceil(p / 100.0 * size) - 1);
    return Math.round(sorted[Math.max(0, i)] / 10_000.0) / 100.0;
  }
}
