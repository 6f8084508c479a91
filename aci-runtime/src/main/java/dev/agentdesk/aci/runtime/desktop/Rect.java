package dev.agentdesk.aci.runtime.desktop;

/** A rectangle in global pixel coordinates (top-left origin). */
public record Rect(int x, int y, int w, int h) {
  /** The part of this rectangle inside {@code bounds}, or null when they do not overlap. */
  public Rect intersect(Rect bounds) {
    int x0 = Math.max(x, bounds.x);
    int y0 = Math.max(y, bounds.y);
    int x1 = Math.min(x + w, bounds.x + bounds.w);
    int y1 = Math.min(y + h, bounds.y + bounds.h);
    return x1 <= x0 || y1 <= y0 ? null : new Rect(x0, y0, x1 - x0, y1 - y0);
  }
}
