package dev.agentdesk.aci.recording;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pixel comparison: tolerance, masks, the box around the change and the diff picture. */
class PixelDiffTest {
  static BufferedImage grey(int w, int h) {
    BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    g.setColor(new Color(0x808080));
    g.fillRect(0, 0, w, h);
    g.dispose();
    return img;
  }

  @Test
  void aChangedBlockIsCountedBoxedAndPaintedRed() {
    BufferedImage a = grey(100, 50);
    BufferedImage b = grey(100, 50);
    b.setRGB(10, 20, 0x868686); // within the channel tolerance: not a change
    for (int y = 5; y < 15; y++) {
      for (int x = 40; x < 42; x++) {
        b.setRGB(x, y, 0x000000); // a caret: 2x10
      }
    }
    PixelDiff.Result r = PixelDiff.compare(a, b, Replayer.CHANNEL_TOLERANCE, List.of());
    assertThat(r.differ()).isEqualTo(20);
    assertThat(r.compared()).isEqualTo(5000);
    assertThat(r.share()).isEqualTo(0.004);
    assertThat(r.box()).isEqualTo(new Replayer.Region(40, 5, 2, 10));
    assertThat(r.picture().getRGB(41, 14) & 0xffffff).isEqualTo(0xff0000);
    assertThat(r.picture().getRGB(0, 0) & 0xffffff).isNotEqualTo(0xff0000);
  }

  @Test
  void aMaskedRegionIsNotComparedAndShowsTinted() {
    BufferedImage a = grey(100, 50);
    BufferedImage b = grey(100, 50);
    b.setRGB(90, 2, 0xffffff);
    PixelDiff.Result r = PixelDiff.compare(a, b, Replayer.CHANNEL_TOLERANCE, List.of(new Replayer.Region(80, 0, 50, 10)));
    assertThat(r.differ()).isZero();
    assertThat(r.compared()).isEqualTo(5000 - 20 * 10);
    assertThat(r.box()).isNull();
    assertThat(r.picture().getRGB(90, 2) & 0xff).isEqualTo(0xc0);
  }

  @Test
  void imagesOfDifferentSizesDifferEverywhere() {
    PixelDiff.Result r = PixelDiff.compare(grey(10, 10), grey(20, 10), 8, List.of());
    assertThat(r.share()).isEqualTo(1.0);
    assertThat(r.picture()).isNull();
  }

  @Test
  void regionsParseOrSayWhatIsWrong() {
    assertThat(Replayer.Region.parse("1180, 0,100,24")).isEqualTo(new Replayer.Region(1180, 0, 100, 24));
    assertThatThrownBy(() -> Replayer.Region.parse("1,2,3")).hasMessageContaining("x,y,w,h");
    assertThatThrownBy(() -> Replayer.Region.parse("a,2,3,4")).hasMessageContaining("four integers");
    assertThatThrownBy(() -> Replayer.Region.parse("1,2,-3,4")).hasMessageContaining("above 0");
  }
}
