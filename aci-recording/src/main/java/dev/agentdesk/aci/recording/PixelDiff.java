package dev.agentdesk.aci.recording;

import java.awt.image.BufferedImage;
import java.util.List;

/**
 * Compares two images pixel by pixel: how many pixels disagree outside the masked rectangles, the
 * box around them, and a picture of where. Images of different sizes disagree everywhere.
 */
final class PixelDiff {
  /** Changed pixels in the diff picture. */
  private static final int CHANGED = 0xffff0000;
  /** Masked pixels in the diff picture: a cold tint, so a mask that hides too much is visible. */
  private static final int MASKED_TINT = 0x0000c0;

  /**
   * {@code differ} pixels of {@code compared} (the unmasked ones) disagree, inside {@code box}
   * ({@code null} when none).
   */
  static final class Result {
    private final long differ;
    private final long compared;
    private final Replayer.Region box;
    private final java.util.function.Supplier<BufferedImage> drawing;

    private Result(long differ, long compared, Replayer.Region box, java.util.function.Supplier<BufferedImage> drawing) {
      this.differ = differ;
      this.compared = compared;
      this.box = box;
      this.drawing = drawing;
    }

    long differ() {
      return differ;
    }

    long compared() {
      return compared;
    }

    Replayer.Region box() {
      return box;
    }

    double share() {
      return compared == 0 ? 0 : (double) differ / compared;
    }

    /**
     * The replayed image faded, changed pixels red, masked ones tinted blue; {@code null} when the
     * sizes differ. Drawn on demand: most comparisons pass and never need it.
     */
    BufferedImage picture() {
      return drawing == null ? null : drawing.get();
    }
  }

  private PixelDiff() {}

  /** {@code masks} are in the images' own pixels. */
  static Result compare(BufferedImage a, BufferedImage b, int tolerance, List<Replayer.Region> masks) {
    if (a.getWidth() != b.getWidth() || a.getHeight() != b.getHeight()) {
      long all = (long) Math.max(a.getWidth() * a.getHeight(), b.getWidth() * b.getHeight());
      return new Result(all, all, new Replayer.Region(0, 0, Math.max(a.getWidth(), b.getWidth()),
          Math.max(a.getHeight(), b.getHeight())), null);
    }
    int w = a.getWidth();
    int h = a.getHeight();
    int[] ra = a.getRGB(0, 0, w, h, null, 0, w);
    int[] rb = b.getRGB(0, 0, w, h, null, 0, w);
    boolean[] masked = masks.isEmpty() ? null : new boolean[ra.length];
    for (Replayer.Region m : masks) {
      for (int y = Math.max(0, m.y()); y < Math.min(h, m.y() + m.h()); y++) {
        for (int x = Math.max(0, m.x()); x < Math.min(w, m.x() + m.w()); x++) {
          masked[y * w + x] = true;
        }
      }
    }
    long differ = 0;
    long compared = 0;
    int x0 = w;
    int y0 = h;
    int x1 = -1;
    int y1 = -1;
    for (int i = 0; i < ra.length; i++) {
      if (masked != null && masked[i]) {
        continue;
      }
      compared++;
      if (differs(ra[i], rb[i], tolerance)) {
        differ++;
        int x = i % w;
        int y = i / w;
        x0 = Math.min(x0, x);
        y0 = Math.min(y0, y);
        x1 = Math.max(x1, x);
        y1 = Math.max(y1, y);
      }
    }
    Replayer.Region box = differ == 0 ? null : new Replayer.Region(x0, y0, x1 - x0 + 1, y1 - y0 + 1);
    return new Result(differ, compared, box, () -> draw(ra, rb, masked, w, h, tolerance));
  }

  private static boolean differs(int p, int q, int tolerance) {
    return Math.abs(((p >> 16) & 0xff) - ((q >> 16) & 0xff)) > tolerance
        || Math.abs(((p >> 8) & 0xff) - ((q >> 8) & 0xff)) > tolerance
        || Math.abs((p & 0xff) - (q & 0xff)) > tolerance;
  }

  private static BufferedImage draw(int[] ra, int[] rb, boolean[] masked, int w, int h, int tolerance) {
    int[] out = new int[ra.length];
    for (int i = 0; i < ra.length; i++) {
      int q = rb[i];
      int fade = 0xff000000 | (fade(q >> 16) << 16) | (fade(q >> 8) << 8) | fade(q);
      if (masked != null && masked[i]) {
        out[i] = (fade & 0xffffff00) | MASKED_TINT | 0xff000000;
      } else {
        out[i] = differs(ra[i], q, tolerance) ? CHANGED : fade;
      }
    }
    BufferedImage picture = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
    picture.setRGB(0, 0, w, h, out, 0, w);
    return picture;
  }

  /** A channel moved three quarters of the way to white: the picture stays readable, red stands out. */
  private static int fade(int channel) {
    return 191 + (channel & 0xff) / 4;
  }
}
