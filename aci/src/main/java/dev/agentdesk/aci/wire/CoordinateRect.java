package dev.agentdesk.aci.wire;

/** A rectangle in global action pixels (schema {@code CoordinateRect}); x/y may be negative. */
public record CoordinateRect(long x, long y, long w, long h) {
  public CoordinateRect {
    Check.atLeast(w, 1, "w");
    Check.atLeast(h, 1, "h");
  }
}
