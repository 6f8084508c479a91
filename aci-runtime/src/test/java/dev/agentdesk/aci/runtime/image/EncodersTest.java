package dev.agentdesk.aci.runtime.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.util.Random;
import javax.imageio.ImageIO;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class EncodersTest {

  @Property(tries = 40)
  void pngRoundTripsExactlyThroughImageIo(@ForAll @IntRange(min = 1, max = 70) int w,
      @ForAll @IntRange(min = 1, max = 40) int h, @ForAll @IntRange(min = 0, max = 9) int level) throws Exception {
    byte[] rgb = new byte[w * h * 3];
    new Random(w * 31L + h).nextBytes(rgb);
    RgbImage img = new RgbImage(w, h, rgb);
    BufferedImage decoded = ImageIO.read(new ByteArrayInputStream(new PngEncoder(level).encode(img)));
    assertThat(decoded.getWidth()).isEqualTo(w);
    assertThat(decoded.getHeight()).isEqualTo(h);
    for (int y = 0; y < h; y++) {
      for (int x = 0; x < w; x++) {
        assertThat(decoded.getRGB(x, y) & 0xFFFFFF).isEqualTo(img.rgbAt(x, y));
      }
    }
  }

  @Property(tries = 200)
  void adlerOfAConcatenationCombinesFromItsParts(@ForAll byte[] x, @ForAll byte[] y, @ForAll boolean large) {
    byte[] tail = large ? java.util.Arrays.copyOf(y, y.length + 200_000) : y; // lengths beyond the modulus too
    java.util.zip.Adler32 whole = new java.util.zip.Adler32();
    whole.update(x);
    whole.update(tail);
    java.util.zip.Adler32 ax = new java.util.zip.Adler32();
    ax.update(x);
    java.util.zip.Adler32 ay = new java.util.zip.Adler32();
    ay.update(tail);
    assertThat(PngEncoder.adlerConcat(ax.getValue(), ay.getValue(), tail.length)).isEqualTo(whole.getValue());
  }

  @Property(tries = 25)
  void anEncoderThatReusesUnchangedStripsWritesWhatAFreshEncoderWrites(@ForAll long seed) throws Exception {
    Random r = new Random(seed);
    int w = 200 + r.nextInt(700);
    int h = 300 + r.nextInt(500);
    byte[] rgb = new byte[w * h * 3];
    for (int y = 0; y < h; y++) { // flat rows with a few noisy ones: desktop-like, several strips
      java.util.Arrays.fill(rgb, y * w * 3, (y + 1) * w * 3, (byte) (y / 16));
      if (r.nextInt(8) == 0) {
        for (int i = 0; i < w * 3; i += 1 + r.nextInt(9)) {
          rgb[y * w * 3 + i] = (byte) r.nextInt();
        }
      }
    }
    PngEncoder reusing = new PngEncoder();
    for (int frame = 0; frame < 6; frame++) {
      byte[] next = rgb.clone();
      int changes = r.nextInt(4); // sometimes nothing changes, sometimes one row at a strip edge
      for (int c = 0; c < changes; c++) {
        int y = r.nextBoolean() ? r.nextInt(h) : Math.min(h - 1, (PngEncoder.STRIP_BYTES / (w * 3 + 1)) * (1 + r.nextInt(3)));
        int x = r.nextInt(w);
        next[(y * w + x) * 3] ^= (byte) (1 + r.nextInt(255));
      }
      rgb = next;
      RgbImage img = new RgbImage(w, h, rgb);
      byte[] fresh = new PngEncoder().encode(img);
      assertThat(reusing.encode(img)).as("frame %d", frame).isEqualTo(fresh);
      BufferedImage decoded = ImageIO.read(new ByteArrayInputStream(fresh));
      for (int y = 0; y < h; y += 13) {
        for (int x = 0; x < w; x += 11) {
          assertThat(decoded.getRGB(x, y) & 0xFFFFFF).isEqualTo(img.rgbAt(x, y));
        }
      }
    }
  }

  @Test
  void largePngsAreDeflatedInParallelBandsAndStillDecodeExactly() throws Exception {
    // big enough for several bands; random rows between flat ones exercise both stored and matched data
    int w = 1280;
    int h = 301;
    byte[] rgb = new byte[w * h * 3];
    Random r = new Random(5);
    for (int y = 0; y < h; y++) {
      if (y % 3 == 0) {
        for (int i = 0; i < w * 3; i++) {
          rgb[y * w * 3 + i] = (byte) r.nextInt();
        }
      } else {
        java.util.Arrays.fill(rgb, y * w * 3, (y + 1) * w * 3, (byte) (y * 7));
      }
    }
    RgbImage img = new RgbImage(w, h, rgb);
    assertThat(rgb.length).isGreaterThan(PngEncoder.PARALLEL_MIN_BYTES);
    BufferedImage decoded = ImageIO.read(new ByteArrayInputStream(new PngEncoder().encode(img)));
    assertThat(decoded.getHeight()).isEqualTo(h);
    for (int y = 0; y < h; y++) {
      for (int x = 0; x < w; x += 7) {
        assertThat(decoded.getRGB(x, y) & 0xFFFFFF).as("(%d,%d)", x, y).isEqualTo(img.rgbAt(x, y));
      }
    }
    // and java.util.zip agrees that the zlib stream is whole (checksum included)
    byte[] png = new PngEncoder().encode(img);
    int idatLen = java.nio.ByteBuffer.wrap(png, 33, 4).getInt();
    java.util.zip.Inflater inf = new java.util.zip.Inflater();
    inf.setInput(png, 41, idatLen);
    byte[] raw = new byte[(w * 3 + 1) * h];
    assertThat(inf.inflate(raw)).isEqualTo(raw.length);
    assertThat(inf.finished()).isTrue();
  }

  @Test
  void jpegDecodesCloseToTheSourceColours() throws Exception {
    RgbImage img = blocks(64, 48);
    byte[] jpeg = new JpegEncoder().encode(img, 90);
    assertThat(jpeg[0] & 0xFF).isEqualTo(0xFF);
    assertThat(jpeg[1] & 0xFF).isEqualTo(0xD8);
    BufferedImage decoded = ImageIO.read(new ByteArrayInputStream(jpeg));
    assertThat(decoded.getWidth()).isEqualTo(64);
    // centres of the flat blocks survive lossy coding within a small tolerance
    assertClose(decoded.getRGB(8, 8), 0xFF0000);
    assertClose(decoded.getRGB(40, 8), 0x00FF00);
    assertClose(decoded.getRGB(8, 40), 0x0000FF);
    assertClose(decoded.getRGB(40, 40), 0xFFFFFF);
  }

  @Test
  void jpegQualityIsValidatedAndChangesSize() {
    RgbImage img = noise(128, 96);
    assertThat(new JpegEncoder().encode(img, 20).length).isLessThan(new JpegEncoder().encode(img, 95).length);
    assertThatThrownBy(() -> new JpegEncoder().encode(img, 0)).hasMessage("quality out of range 1-100: 0");
    assertThatThrownBy(() -> new JpegEncoder().encode(img, 101)).hasMessage("quality out of range 1-100: 101");
  }

  @Test
  void downscaleFitsTheLongEdgeAndKeepsTheAspect() {
    assertThat(Downscale.fit(1920, 1080, 1280)).containsExactly(1280, 720);
    assertThat(Downscale.fit(1280, 800, 1024)).containsExactly(1024, 640);
    assertThat(Downscale.fit(800, 1280, 640)).containsExactly(400, 640);
    assertThat(Downscale.fit(1280, 800, 2576)).containsExactly(1280, 800);
    assertThat(Downscale.fit(5000, 1, 100)).containsExactly(100, 1);
  }

  @Test
  void downscaleAveragesAreasInsteadOfPickingSamples() {
    // one-pixel black/white vertical stripes: nearest-neighbour at 2x would give all-black or
    // all-white; an area filter gives mid grey.
    int w = 64;
    int h = 8;
    byte[] rgb = new byte[w * h * 3];
    for (int y = 0; y < h; y++) {
      for (int x = 0; x < w; x++) {
        byte v = (byte) (x % 2 == 0 ? 0 : 255);
        int i = 3 * (y * w + x);
        rgb[i] = v;
        rgb[i + 1] = v;
        rgb[i + 2] = v;
      }
    }
    RgbImage half = Downscale.toLongEdge(new RgbImage(w, h, rgb), 32);
    assertThat(half.width()).isEqualTo(32);
    assertThat(half.height()).isEqualTo(4);
    for (int x = 0; x < 32; x++) {
      assertThat(half.rgbAt(x, 2)).isEqualTo(0x808080);
    }
  }

  @Test
  void downscaleKeepsFlatColoursExact() {
    RgbImage img = blocks(300, 200);
    RgbImage small = Downscale.resize(img, 200, 133);
    assertThat(small.rgbAt(10, 10)).isEqualTo(0xFF0000);
    assertThat(small.rgbAt(190, 10)).isEqualTo(0x00FF00);
    assertThat(small.rgbAt(10, 120)).isEqualTo(0x0000FF);
    assertThat(small.rgbAt(190, 120)).isEqualTo(0xFFFFFF);
  }

  @Test
  void frameHashDependsOnPixelsAndShape() {
    RgbImage a = blocks(64, 48);
    RgbImage b = blocks(64, 48);
    assertThat(a.frameHash()).isEqualTo(b.frameHash()).hasSize(32).matches("[0-9a-f]{32}");
    byte[] changed = a.rgb().clone();
    changed[100] ^= 1;
    assertThat(new RgbImage(64, 48, changed).frameHash()).isNotEqualTo(a.frameHash());
    assertThat(new RgbImage(48, 64, a.rgb()).frameHash()).isNotEqualTo(a.frameHash());
    assertThat(a.frameHash()).isEqualTo(Xxh3.hash128(a.rgb(), (64L << 16) | 48).hex());
  }

  static RgbImage blocks(int w, int h) {
    byte[] rgb = new byte[w * h * 3];
    for (int y = 0; y < h; y++) {
      for (int x = 0; x < w; x++) {
        int c = x < w / 2 ? (y < h / 2 ? 0xFF0000 : 0x0000FF) : (y < h / 2 ? 0x00FF00 : 0xFFFFFF);
        int i = 3 * (y * w + x);
        rgb[i] = (byte) (c >> 16);
        rgb[i + 1] = (byte) (c >> 8);
        rgb[i + 2] = (byte) c;
      }
    }
    return new RgbImage(w, h, rgb);
  }

  private static RgbImage noise(int w, int h) {
    byte[] rgb = new byte[w * h * 3];
    new Random(3).nextBytes(rgb);
    return new RgbImage(w, h, rgb);
  }

  private static void assertClose(int argb, int expected) {
    for (int shift = 0; shift <= 16; shift += 8) {
      assertThat(Math.abs(((argb >> shift) & 0xFF) - ((expected >> shift) & 0xFF))).isLessThanOrEqualTo(12);
    }
  }
}
