package dev.agentdesk.aci.runtime.screencast;

import dev.agentdesk.aci.runtime.image.RgbImage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Splits two same-sized frames into a fixed grid of {@value #TILE} px tiles and reports the tiles
 * whose pixels differ. Edge tiles are clipped to the image, so every tile lies fully inside it.
 */
final class TileDiff {
  static final int TILE = 64;

  private TileDiff() {}

  /** A tile's place in the frame, in delivered pixels. */
  record Region(int x, int y, int w, int h) {}

  /** The tiles of {@code current} that differ from {@code previous}; both must have the same size. */
  static List<Region> changed(RgbImage previous, RgbImage current) {
    if (previous.width() != current.width() || previous.height() != current.height()) {
      throw new IllegalArgumentException("frames differ in size: " + previous.width() + "x" + previous.height()
          + " vs " + current.width() + "x" + current.height());
    }
    int w = current.width();
    int h = current.height();
    byte[] a = previous.rgb();
    byte[] b = current.rgb();
    List<Region> out = new ArrayList<>();
    for (int ty = 0; ty < h; ty += TILE) {
      int th = Math.min(TILE, h - ty);
      for (int tx = 0; tx < w; tx += TILE) {
        int tw = Math.min(TILE, w - tx);
        if (differs(a, b, w, tx, ty, tw, th)) {
          out.add(new Region(tx, ty, tw, th));
        }
      }
    }
    return out;
  }

  private static boolean differs(byte[] a, byte[] b, int width, int x, int y, int w, int h) {
    for (int row = y; row < y + h; row++) {
      int from = 3 * (row * width + x);
      int to = from + 3 * w;
      if (!Arrays.equals(a, from, to, b, from, to)) {
        return true;
      }
    }
    return false;
  }

  /** A copy of one region of {@code image} as its own image. */
  static RgbImage crop(RgbImage image, Region r) {
    byte[] out = new byte[r.w() * r.h() * 3];
    for (int row = 0; row < r.h(); row++) {
      System.arraycopy(image.rgb(), 3 * ((r.y() + row) * image.width() + r.x()), out, 3 * row * r.w(), 3 * r.w());
    }
    return new RgbImage(r.w(), r.h(), out);
  }
}
