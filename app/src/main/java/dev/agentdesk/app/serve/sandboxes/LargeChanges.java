package dev.agentdesk.app.serve.sandboxes;

import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;

/**
 * Large changes of the live screen as one lossy frame (ADR 0025, "large changes"): a patch whose
 * png pieces weigh at least {@link #MIN_BYTES} and cover at least {@link #MIN_AREA} of the screen
 * (a page load, a window switch, a scroll of a photo) goes to the viewers as one jpeg of the box
 * around them, composed from the lossless picture, when that jpeg is at most {@link #MAX_RATIO} of
 * the png bytes; else the png tiles go as they are. Once the screen is still the feed sends the
 * runtime's own png pieces of what changed, and {@link #uncovered} png cells for the rest of the
 * jpeg's box (what was in it without changing), so the canvas ends up pixel for pixel the display.
 */
final class LargeChanges {
  /** Below this a png patch is cheap enough to send as it is (a dialog, a line of text). */
  static final long MIN_BYTES = 64 * 1024;
  /** The share of the screen a patch's pieces must cover: a big but small-area png stays exact. */
  static final double MIN_AREA = 0.25;
  /** Lossy only when it saves at least a third. */
  static final double MAX_RATIO = 2.0 / 3;
  static final float JPEG_QUALITY = 0.8f;

  private LargeChanges() {}

  /**
   * The lossy form of {@code patch}, or null when it should go lossless. {@code picture} is the
   * lossless picture with {@code patch} already merged in; screenW/H its size.
   */
  static ScreenPatch lossy(ScreenPatch patch, ScreenPatch picture, int screenW, int screenH) {
    long bytes = patch.payloadBytes();
    if (bytes < MIN_BYTES || screenW <= 0 || screenH <= 0
        || patch.paintedArea() < MIN_AREA * screenW * screenH) {
      return null;
    }
    int[] box = clip(patch.bounds(), screenW, screenH);
    if (box == null) {
      return null;
    }
    byte[] jpeg = jpeg(compose(picture, box));
    if (jpeg.length > bytes * MAX_RATIO) {
      return null;
    }
    ScreenPatch out = new ScreenPatch();
    if (patch.hasKeyframe() && box[2] == screenW && box[3] == screenH) {
      out.keyframe(patch.seq(), "jpeg", new ScreenPatch.Piece(0, 0, screenW, screenH, jpeg, "jpeg"));
    } else {
      out.tiles(patch.seq(), patch.format(), List.of(new ScreenPatch.Piece(box[0], box[1], box[2], box[3], jpeg,
          "jpeg")));
      out.size(screenW, screenH);
    }
    return out;
  }

  /** The grid cells the exact refresh fills from the picture: png cells of the box no exact piece contains. */
  static final int CELL = 64;

  /**
   * Cells ({@link #CELL} px, on the screen's grid) of {@code box} that no piece of {@code exact}
   * contains whole, each as a png composed from {@code picture}: the parts of a lossy frame that
   * did not change, so the runtime never sent them again.
   */
  static List<ScreenPatch.Piece> uncovered(ScreenPatch picture, int[] box, ScreenPatch exact, int screenW,
      int screenH) {
    int[] b = clip(box, screenW, screenH);
    List<ScreenPatch.Piece> out = new java.util.ArrayList<>();
    if (b == null || picture.isEmpty()) {
      return out;
    }
    List<ScreenPatch.Piece> have = exact.pieces();
    // Each piece of the picture decoded once, however many cells it spans; a cell is cut from this.
    int[] grid = clip(new int[] {b[0] / CELL * CELL, b[1] / CELL * CELL, b[0] + b[2] - b[0] / CELL * CELL + CELL,
        b[1] + b[3] - b[1] / CELL * CELL + CELL}, screenW, screenH);
    BufferedImage whole = null;
    for (int y = b[1] / CELL * CELL; y < b[1] + b[3]; y += CELL) {
      for (int x = b[0] / CELL * CELL; x < b[0] + b[2]; x += CELL) {
        int[] c = clip(new int[] {x, y, CELL, CELL}, screenW, screenH);
        if (c == null || have.stream().anyMatch(p -> p.x() <= c[0] && p.y() <= c[1] && p.x() + p.w() >= c[0] + c[2]
            && p.y() + p.h() >= c[1] + c[3])) {
          continue;
        }
        if (whole == null) {
          whole = compose(picture, grid);
        }
        out.add(new ScreenPatch.Piece(c[0], c[1], c[2], c[3],
            png(whole.getSubimage(c[0] - grid[0], c[1] - grid[1], c[2], c[3])), "png"));
      }
    }
    return out;
  }

  /** The union of two boxes {x, y, w, h}; either may be null. */
  static int[] union(int[] a, int[] b) {
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    int x0 = Math.min(a[0], b[0]);
    int y0 = Math.min(a[1], b[1]);
    int x1 = Math.max(a[0] + a[2], b[0] + b[2]);
    int y1 = Math.max(a[1] + a[3], b[1] + b[3]);
    return new int[] {x0, y0, x1 - x0, y1 - y0};
  }

  private static int[] clip(int[] box, int w, int h) {
    if (box == null) {
      return null;
    }
    int x0 = Math.max(0, box[0]);
    int y0 = Math.max(0, box[1]);
    int x1 = Math.min(w, box[0] + box[2]);
    int y1 = Math.min(h, box[1] + box[3]);
    return x1 > x0 && y1 > y0 ? new int[] {x0, y0, x1 - x0, y1 - y0} : null;
  }

  /** The picture's pieces that touch the box, painted in order onto an image of the box. */
  static BufferedImage compose(ScreenPatch picture, int[] box) {
    BufferedImage out = new BufferedImage(box[2], box[3], BufferedImage.TYPE_INT_RGB);
    Graphics2D g = out.createGraphics();
    try {
      for (ScreenPatch.Piece p : picture.pieces()) {
        if (p.intersects(box[0], box[1], box[2], box[3])) {
          g.drawImage(decode(p.bytes()), p.x() - box[0], p.y() - box[1], null);
        }
      }
    } finally {
      g.dispose();
    }
    return out;
  }

  private static BufferedImage decode(byte[] bytes) {
    try {
      BufferedImage img = ImageIO.read(new ByteArrayInputStream(bytes));
      if (img == null) {
        throw new IllegalArgumentException("a screen piece is neither png nor jpeg");
      }
      return img;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static byte[] jpeg(BufferedImage img) {
    ImageWriter w = ImageIO.getImageWritersByFormatName("jpeg").next();
    ByteArrayOutputStream out = new ByteArrayOutputStream(img.getWidth() * img.getHeight() / 4);
    try (MemoryCacheImageOutputStream ios = new MemoryCacheImageOutputStream(out)) {
      w.setOutput(ios);
      ImageWriteParam p = w.getDefaultWriteParam();
      p.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
      p.setCompressionQuality(JPEG_QUALITY);
      w.write(null, new IIOImage(img, null, null), p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      w.dispose();
    }
    return out.toByteArray();
  }

  private static byte[] png(BufferedImage img) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      ImageIO.write(img, "png", out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
