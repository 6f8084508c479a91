package dev.agentdesk.reliability;

import java.util.Arrays;
import java.util.function.Predicate;

/**
 * Measures whether a token check takes the same time for two wrong tokens: the median over
 * pairs of batches of (time of a batch of calls with {@code a}) / (time of the batch with {@code
 * b} next to it). Pairs run in ABBA order so neither case always runs first (JIT, cache and
 * frequency drift cancel out).
 */
final class ConstantTime {
  static final int BATCHES = 61;
  private static final int PER_BATCH = 5_000;

  private ConstantTime() {}

  static double medianRatio(Predicate<String> check, String a, String b) {
    for (int warm = 0; warm < 3; warm++) {
      time(check, a, 20_000);
      time(check, b, 20_000);
    }
    long[] ta = new long[BATCHES];
    long[] tb = new long[BATCHES];
    for (int i = 0; i < BATCHES; i++) {
      if (i % 2 == 0) {
        ta[i] = time(check, a, PER_BATCH);
        tb[i] = time(check, b, PER_BATCH);
      } else {
        tb[i] = time(check, b, PER_BATCH);
        ta[i] = time(check, a, PER_BATCH);
      }
    }
    // The median of the per-pair ratios: the two batches of a pair ran back to back under the same
    // machine conditions, so a load burst from other processes moves both and cancels out, where
    // a ratio of two separately taken medians would carry it.
    double[] ratios = new double[BATCHES];
    for (int i = 0; i < BATCHES; i++) {
      ratios[i] = (double) ta[i] / tb[i];
    }
    Arrays.sort(ratios);
    return ratios[BATCHES / 2];
  }

  static String describe() {
    return BATCHES + " ABBA-interleaved batches × " + PER_BATCH + " compares";
  }

  private static long time(Predicate<String> check, String token, int n) {
    boolean any = false;
    long t0 = System.nanoTime();
    for (int i = 0; i < n; i++) {
      any |= check.test(token);
    }
    long dt = System.nanoTime() - t0;
    if (any) {
      throw new AssertionError("a wrong token was accepted: " + token);
    }
    return dt;
  }
}
