package dev.agentdesk.aci.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdesk.aci.AciClientException;
import dev.agentdesk.aci.wire.ImageFormat;
import dev.agentdesk.aci.wire.ObservationImage;
import dev.agentdesk.aci.wire.ObservationMsg;
import dev.agentdesk.aci.wire.Scope;
import dev.agentdesk.aci.wire.Tile;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Base64;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/** Compositing on PNGs made here; ScreencastProtocolTest in aci-runtime runs it on a real stream. */
class StreamCompositorTest {
  private static String png(BufferedImage img) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ImageIO.write(img, "png", out);
    return Base64.getEncoder().encodeToString(out.toByteArray());
  }

  private static BufferedImage filled(int w, int h, int rgb) {
    BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
    for (int y = 0; y < h; y++) {
      for (int x = 0; x < w; x++) {
        img.setRGB(x, y, rgb);
      }
    }
    return img;
  }

  private static ObservationMsg key(String stream, long seq, BufferedImage img) throws IOException {
    return ObservationMsg.builder(stream + "-" + seq).stream(stream).seq(seq)
        .image(new ObservationImage(png(img), img.getWidth(), img.getHeight(), Scope.SCREEN, ImageFormat.PNG)).build();
  }

  private static ObservationMsg delta(String stream, long seq, Tile... tiles) {
    return ObservationMsg.builder(stream + "-" + seq).stream(stream).seq(seq).tiles(List.of(tiles)).build();
  }

  @Test
  void tilesArePaintedOntoTheKeyframeAndGapsAreCounted() throws IOException {
    StreamCompositor c = new StreamCompositor();
    StreamCompositor.Frame first = c.apply(key("s", 3, filled(130, 70, 0x112233)));
    assertThat(first.keyframe()).isTrue();
    assertThat(first.missed()).isZero();
    StreamCompositor.Frame second = c.apply(delta("s", 6, new Tile(64, 64, 64, 6, png(filled(64, 6, 0xABCDEF))),
        new Tile(128, 0, 2, 64, png(filled(2, 64, 0x00FF00)))));
    assertThat(second.keyframe()).isFalse();
    assertThat(second.missed()).as("seqs 4 and 5 never arrived").isEqualTo(2);
    BufferedImage img = second.image();
    assertThat(img.getRGB(64, 64) & 0xFFFFFF).isEqualTo(0xABCDEF);
    assertThat(img.getRGB(127, 69) & 0xFFFFFF).isEqualTo(0xABCDEF);
    assertThat(img.getRGB(63, 64) & 0xFFFFFF).isEqualTo(0x112233);
    assertThat(img.getRGB(129, 0) & 0xFFFFFF).isEqualTo(0x00FF00);
    assertThat(img.getRGB(129, 64) & 0xFFFFFF).isEqualTo(0x112233);
    img.setRGB(0, 0, 0);
    assertThat(c.apply(delta("s", 7, new Tile(0, 64, 1, 1, png(filled(1, 1, 0x010101))))).image().getRGB(0, 0) & 0xFFFFFF)
        .as("frames handed out are copies").isEqualTo(0x112233);
  }

  @Test
  void malformedStreamsAreTypedProtocolViolations() throws IOException {
    StreamCompositor c = new StreamCompositor();
    assertThatThrownBy(() -> c.apply(delta("s", 0, new Tile(0, 0, 1, 1, png(filled(1, 1, 1))))))
        .isInstanceOfSatisfying(AciClientException.class,
            e -> assertThat(e.reason()).isEqualTo(AciClientException.Reason.PROTOCOL_VIOLATION))
        .hasMessageContaining("before any keyframe");
    c.apply(key("s", 0, filled(64, 64, 0)));
    assertThatThrownBy(() -> c.apply(delta("s", 1, new Tile(0, 0, 8, 8, png(filled(8, 8, 0xFFFFFF))),
        new Tile(32, 0, 64, 64, png(filled(64, 64, 1)))))).hasMessageContaining("does not fit");
    assertThat(c.apply(delta("s", 1, new Tile(63, 63, 1, 1, png(filled(1, 1, 0))))).image().getRGB(0, 0) & 0xFFFFFF)
        .as("a refused frame paints nothing").isZero();
    assertThatThrownBy(() -> c.apply(key("other", 2, filled(64, 64, 0)))).hasMessageContaining("stream other");
    assertThatThrownBy(() -> c.apply(key("s", 0, filled(64, 64, 0)))).hasMessageContaining("seq 0 after 1");
    assertThatThrownBy(() -> c.apply(delta("s", 3, new Tile(0, 0, 1, 1, "bm90IGFuIGltYWdl"))))
        .isInstanceOf(AciClientException.class);
    assertThatThrownBy(() -> c.apply(ObservationMsg.builder("shot").cause("c").build()))
        .hasMessageContaining("not a screencast frame");
  }
}
