package dev.agentdesk.aci.wire;

/**
 * Observe-after-act parameters (schema {@code ObserveSpec}): the capture levers of a one-shot
 * screenshot. Every component may be null (absent).
 */
public record ObserveSpec(Scope scope, ImageFormat format, Integer quality, Integer maxLongEdge) {
  /** Observe with the runtime's defaults ({@code "observe": {}}). */
  public static final ObserveSpec DEFAULTS = new ObserveSpec(null, null, null, null);

  public ObserveSpec {
    Check.between(quality, 1, 100, "quality");
    Check.atLeast(maxLongEdge, 1, "max_long_edge");
  }
}
