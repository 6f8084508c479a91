package dev.agentdesk.aci.runtime.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;

/** Pixel comparison of a frame a client rebuilt with a direct lossless screenshot. */
final class Pixels {
  private Pixels() {}

  /** Same size and the same RGB at every pixel (alpha ignored). */
  static void assertSameRgb(BufferedImage rebuilt, BufferedImage direct) {
    assertThat(rebuilt.getWidth()).isEqualTo(direct.getWidth());
    assertThat(rebuilt.getHeight()).isEqualTo(direct.getHeight());
    int differing = 0;
    for (int y = 0; y < direct.getHeight(); y++) {
      for (int x = 0; x < direct.getWidth(); x++) {
        if ((rebuilt.getRGB(x, y) & 0xFFFFFF) != (direct.getRGB(x, y) & 0xFFFFFF)) {
          differing++;
        }
      }
    }
    assertThat(differing).as("pixels differing from a direct lossless screenshot").isZero();
  }
}
