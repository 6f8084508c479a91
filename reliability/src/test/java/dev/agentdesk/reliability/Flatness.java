package dev.agentdesk.reliability;

import java.util.List;

/**
 * Whether a series sampled over a long run is flat. Samples of the warm-up (class loading, JIT,
 * the first import, terminal logs filling to their cap) are dropped first; on the rest:
 *
 * <ul>
 *   <li>{@code growth}: the least-squares line's rise over the measured span — a leak of any
 *       shape shows here, while one-off spikes barely move it;
 *   <li>{@code thirdsRise}: the max of the last third minus the max of the first third — the
 *       plain reading, which a sawtooth (GC, pooled buffers) does not fool.
 * </ul>
 *
 * A series is flat when both stay under the bound.
 */
record Flatness(int samples, double first, double last, double mean, double growth, double thirdsRise) {

  /** {@code t} in seconds, {@code v} the values; the first {@code warmup} samples are dropped. */
  static Flatness of(List<Double> t, List<Double> v, int warmup) {
    List<Double> ts = t.subList(warmup, t.size());
    List<Double> vs = v.subList(warmup, v.size());
    int n = vs.size();
    if (n < 3) {
      throw new IllegalArgumentException("need at least 3 samples after warm-up, got " + n);
    }
    double mt = ts.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    double mv = vs.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    double sxy = 0;
    double sxx = 0;
    for (int i = 0; i < n; i++) {
      sxy += (ts.get(i) - mt) * (vs.get(i) - mv);
      sxx += (ts.get(i) - mt) * (ts.get(i) - mt);
    }
    double slope = sxx == 0 ? 0 : sxy / sxx;
    double span = ts.get(n - 1) - ts.get(0);
    int third = n / 3;
    double firstMax = vs.subList(0, third).stream().mapToDouble(Double::doubleValue).max().orElseThrow();
    double lastMax = vs.subList(n - third, n).stream().mapToDouble(Double::doubleValue).max().orElseThrow();
    return new Flatness(n, vs.get(0), vs.get(n - 1), mv, slope * span, lastMax - firstMax);
  }

  /** Both measures at most {@code bound} (in the series' unit). */
  boolean flatWithin(double bound) {
    return growth <= bound && thirdsRise <= bound;
  }

  String describe(String unit) {
    return String.format("%d samples after warm-up, first %.1f %s, last %.1f %s, mean %.1f %s, "
        + "least-squares growth %.2f %s, last-third max − first-third max %.2f %s",
        samples, first, unit, last, unit, mean, unit, growth, unit, thirdsRise, unit);
  }
}
