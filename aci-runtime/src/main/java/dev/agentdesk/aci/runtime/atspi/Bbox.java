package dev.agentdesk.aci.runtime.atspi;

/**
 * An element's box in display pixels (AT-SPI screen coordinates), origin top-left.
 * A box with no area means "no usable on-screen bounds".
 */
public record Bbox(int x, int y, int w, int h) {
  public static final Bbox NONE = new Bbox(0, 0, 0, 0);

  /** Whether a pointer verb can aim at this box. */
  public boolean usable() {
    return w > 0 && h > 0;
  }

  /** The centre {@code (x + w/2, y + h/2)} clipped to a {@code screenW x screenH} screen. */
  public ScreenPoint centreClippedTo(int screenW, int screenH) {
    int cx = x + w / 2;
    int cy = y + h / 2;
    return new ScreenPoint(clamp(cx, 0, screenW - 1), clamp(cy, 0, screenH - 1));
  }

  private static int clamp(int v, int lo, int hi) {
    return Math.max(lo, Math.min(hi, v));
  }
}
