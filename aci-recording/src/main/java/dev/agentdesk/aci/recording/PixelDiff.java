package dev.agentdesk.aci.recording;

import java.awt.image.BufferedImage;

/** The share of pixels two images disagree on; images of different sizes disagree everywhere. */
final class PixelDiff {
  private PixelDiff() {}

  static double share(BufferedImage a, BufferedImage b, int tolerance) {
    if (a.getWidth() != b.getWidth() || a.getHeight() != b.getHeight()) {
      return 1.0;
    }
    int w = a.getWidth();
    int h = a.getHeight();
    int[] ra = a.getRGB(0, 0, w, h, null, 0, w);
    int[] rb = b.getRGB(0, 0, w, h, null, 0, w);
    long differ = 0;
    for (int i = 0; i < ra.length; i++) {
      int x = ra[i];
      int y = rb[i];
      if (Math.abs(((x >> 16) & 0xff) - ((y >> 16) & 0xff)) > tolerance
          || Math.abs(((x >> 8) & 0xff) - ((y >> 8) & 0xff)) > tolerance
          || Math.abs((x & 0xff) - (y & 0xff)) > tolerance) {
        differ++;
      }
    }
    return (double) differ / ra.length;
  }
}
