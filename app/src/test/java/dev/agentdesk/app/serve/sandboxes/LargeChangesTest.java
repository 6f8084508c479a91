package dev.agentdesk.app.serve.sandboxes;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/**
 * When a patch goes lossy: a photo-like change over most of the screen does, as one jpeg of its box
 * under two thirds of its png bytes; a flat change (png is small), a small one, and a big one over
 * little of the screen do not. The exact refresh's cells fill what the jpeg box held unchanged.
 */
class LargeChangesTest {
  static final int W = 640;
  static final int H = 384;

  static BufferedImage photo(int w, int h, long seed) {
    BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
    Random grain = new Random(seed);
    for (int y = 0; y < h; y++) {
      for (int x = 0; x < w; x++) {
        int v = (int) (128 + 70 * Math.sin(x / 29.0) + 40 * Math.cos(y / 17.0)) + grain.nextInt(17) - 8;
        int c = Math.max(0, Math.min(255, v));
        img.setRGB(x, y, c << 16 | (255 - c) << 8 | (c / 2 + 60));
      }
    }
    return img;
  }

  static byte[] png(BufferedImage img) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ImageIO.write(img, "png", out);
    return out.toByteArray();
  }

  /** The picture so far: a flat keyframe, as a desktop before the change. */
  static ScreenPatch flatPicture() throws Exception {
    BufferedImage flat = new BufferedImage(W, H, BufferedImage.TYPE_INT_RGB);
    ScreenPatch p = new ScreenPatch();
    p.keyframe(1, "png", new ScreenPatch.Piece(0, 0, W, H, png(flat)));
    return p;
  }

  /** The tiles (64 px, the runtime's grid) of {@code img} over the rectangle x0..x1, y0..y1. */
  static ScreenPatch tiles(BufferedImage img, int x0, int y0, int x1, int y1) throws Exception {
    List<ScreenPatch.Piece> pieces = new ArrayList<>();
    for (int y = y0; y < y1; y += 64) {
      for (int x = x0; x < x1; x += 64) {
        pieces.add(new ScreenPatch.Piece(x, y, 64, 64, png(img.getSubimage(x, y, 64, 64))));
      }
    }
    ScreenPatch p = new ScreenPatch();
    p.tiles(2, "png", pieces);
    p.size(W, H);
    return p;
  }

  @Test
  void aPhotoLikeChangeOverMostOfTheScreenGoesAsOneSmallerJpeg() throws Exception {
    ScreenPatch picture = flatPicture();
    ScreenPatch change = tiles(photo(W, H, 1), 0, 0, W, H);
    picture.merge(change);
    ScreenPatch lossy = LargeChanges.lossy(change, picture, W, H);
    assertThat(lossy).isNotNull();
    assertThat(lossy.pieces()).hasSize(1);
    ScreenPatch.Piece jpeg = lossy.pieces().get(0);
    assertThat(jpeg.format()).isEqualTo("jpeg");
    assertThat(new int[] {jpeg.x(), jpeg.y(), jpeg.w(), jpeg.h()}).containsExactly(0, 0, W, H);
    assertThat((double) jpeg.bytes().length).isLessThan(change.payloadBytes() * LargeChanges.MAX_RATIO);
    assertThat(new String(lossy.encode(), 4, 200, java.nio.charset.StandardCharsets.ISO_8859_1))
        .contains("\"format\":\"jpeg\"");
    // It looks like the picture: jpeg noise, not another image.
    BufferedImage back = ImageIO.read(new ByteArrayInputStream(jpeg.bytes()));
    BufferedImage want = photo(W, H, 1);
    long far = 0;
    for (int y = 0; y < H; y += 7) {
      for (int x = 0; x < W; x += 7) {
        if (Math.abs((back.getRGB(x, y) & 0xff) - (want.getRGB(x, y) & 0xff)) > 40) {
          far++;
        }
      }
    }
    assertThat(far).isLessThan(W * H / 49 / 100);
  }

  @Test
  void flatSmallOrNarrowChangesStayPng() throws Exception {
    ScreenPatch picture = flatPicture();
    BufferedImage flat = new BufferedImage(W, H, BufferedImage.TYPE_INT_RGB);
    ScreenPatch flatChange = tiles(flat, 0, 0, W, H); // the whole screen, but png is tiny
    assertThat(LargeChanges.lossy(flatChange, picture, W, H)).isNull();
    ScreenPatch small = tiles(photo(W, H, 2), 0, 0, 128, 128); // busy, but small bytes
    assertThat(LargeChanges.lossy(small, picture, W, H)).isNull();
    // Heavy, but a strip: 1280x128 of a 1280x800 screen is a sixth of it.
    ScreenPatch narrow = tiles(photo(1280, 128, 3), 0, 0, 1280, 128);
    assertThat(narrow.payloadBytes()).isGreaterThan(LargeChanges.MIN_BYTES);
    assertThat(LargeChanges.lossy(narrow, picture, 1280, 800)).isNull();
  }

  @Test
  void theRefreshFillsTheCellsOfTheBoxThatDidNotChange() throws Exception {
    ScreenPatch picture = flatPicture();
    // Changed: everything but the cell at 128,128 (a window that stayed where it was).
    BufferedImage img = photo(W, H, 4);
    ScreenPatch change = tiles(img, 0, 0, W, H);
    List<ScreenPatch.Piece> without = change.pieces().stream().filter(p -> !(p.x() == 128 && p.y() == 128)).toList();
    ScreenPatch holed = new ScreenPatch();
    holed.tiles(2, "png", without);
    holed.size(W, H);
    picture.merge(holed);
    List<ScreenPatch.Piece> fill = LargeChanges.uncovered(picture, holed.bounds(), holed, W, H);
    assertThat(fill).hasSize(1);
    assertThat(fill.get(0).x()).isEqualTo(128);
    assertThat(fill.get(0).y()).isEqualTo(128);
    BufferedImage cell = ImageIO.read(new ByteArrayInputStream(fill.get(0).bytes()));
    assertThat(cell.getRGB(5, 5) & 0xffffff).isZero(); // the flat keyframe's black, exact
  }
}
