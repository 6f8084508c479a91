package dev.agentdesk.aci.runtime.atspi;

import java.time.Duration;

/**
 * The bounds of one structured observation. Defaults match the reference runtime; with the
 * pipelined walk a large GTK window (gtk3-widget-factory, a few hundred showing nodes) takes
 * well under a second, so the budget only bites on hung or enormous applications.
 *
 * @param perCall how long one AT-SPI call may take before its node is given up
 * @param walkBudget total time for discovering and walking the tree
 * @param nodeCap most accessibles visited in one walk (hidden ones count: they cost calls too)
 * @param depthCap deepest level below the application that is walked
 * @param appCap most applications inspected when looking for the active window
 * @param textCap longest name/description/value kept, in characters
 * @param settleQuietMin smallest quiet window a {@code settle_ms} is clamped to
 * @param settleQuietMax largest quiet window a {@code settle_ms} is clamped to
 * @param settleTotal hard cap on the whole settle wait
 * @param request hard deadline of one observe (settle + walk + render)
 * @param diffLineBudget most lines a diff may have before the full tree is sent instead
 */
public record WalkLimits(
    Duration perCall,
    Duration walkBudget,
    int nodeCap,
    int depthCap,
    int appCap,
    int textCap,
    Duration settleQuietMin,
    Duration settleQuietMax,
    Duration settleTotal,
    Duration request,
    int diffLineBudget) {

  public static final WalkLimits DEFAULTS = new WalkLimits(
      Duration.ofMillis(250),
      Duration.ofMillis(2500),
      2000,
      48,
      64,
      200,
      Duration.ofMillis(10),
      Duration.ofMillis(1000),
      Duration.ofMillis(3000),
      Duration.ofSeconds(8),
      200);

  public WalkLimits {
    if (nodeCap < 1 || depthCap < 1 || appCap < 1 || textCap < 1 || diffLineBudget < 1) {
      throw new IllegalArgumentException("walk limits must be positive");
    }
  }

  public WalkLimits withNodeCap(int cap) {
    return new WalkLimits(perCall, walkBudget, cap, depthCap, appCap, textCap, settleQuietMin,
        settleQuietMax, settleTotal, request, diffLineBudget);
  }

  public WalkLimits withDiffLineBudget(int budget) {
    return new WalkLimits(perCall, walkBudget, nodeCap, depthCap, appCap, textCap, settleQuietMin,
        settleQuietMax, settleTotal, request, budget);
  }

  /** The quiet window a requested {@code settle_ms} becomes (0 stays 0: no settle). */
  public Duration quietWindowFor(int settleMs) {
    if (settleMs <= 0) {
      return Duration.ZERO;
    }
    long ms = Math.max(settleQuietMin.toMillis(), Math.min(settleQuietMax.toMillis(), settleMs));
    return Duration.ofMillis(ms);
  }
}
