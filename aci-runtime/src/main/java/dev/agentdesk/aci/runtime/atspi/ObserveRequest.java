package dev.agentdesk.aci.runtime.atspi;

import dev.agentdesk.aci.runtime.atspi.StructuredObservationException.Kind;

/**
 * The parameters of one {@code observe} action.
 *
 * @param diff render {@code tree_text} against the session's previous revision when possible
 * @param settleMs quiet window for a11y change events before the walk (0 = no settle); the
 *     engine clamps it, see {@link WalkLimits}
 */
public record ObserveRequest(boolean diff, int settleMs) {
  public ObserveRequest {
    if (settleMs < 0) {
      throw new StructuredObservationException(
          Kind.BAD_REQUEST, "bad action: settle_ms must be >= 0, got " + settleMs);
    }
  }

  public static final ObserveRequest FULL = new ObserveRequest(false, 0);

  /**
   * Builds a request from the optional wire fields of an {@code observe} action, with the
   * reference runtime's error for an explicit {@code structured:false}.
   */
  public static ObserveRequest fromWire(Boolean structured, Boolean diff, Integer settleMs) {
    if (Boolean.FALSE.equals(structured)) {
      throw new StructuredObservationException(
          Kind.BAD_REQUEST,
          "observe structured:false is the pixel path \u2014 use `screenshot`");
    }
    return new ObserveRequest(Boolean.TRUE.equals(diff), settleMs == null ? 0 : settleMs);
  }
}
