package dev.agentdesk.computeruse;

import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import javax.imageio.ImageIO;

/**
 * The two image edits the runtime cannot do for a tool: a resize to a declared size whose aspect
 * ratio differs from the screen's, and a crop (zoom). Both decode the runtime's png, draw with
 * bilinear filtering and encode png again, so they cost milliseconds; the common case (the declared
 * size has the screen's aspect ratio) never comes here.
 */
final class Images {
  private Images() {}

  /** {@code b64} (png or jpeg) resized to exactly {@code to}, as base64 png. */
  static String resize(String b64, DisplaySize to) {
    BufferedImage src = decode(b64);
    return encode(draw(src, 0, 0, src.getWidth(), src.getHeight(), to.width(), to.height()));
  }

  /**
   * The rectangle {@code x, y, w, h} of {@code b64} (clipped to the image) at its own resolution,
   * or shrunk, aspect kept, to fit within {@code fit} when larger; base64 png.
   */
  static String crop(String b64, int x, int y, int w, int h, DisplaySize fit) {
    BufferedImage src = decode(b64);
    int cx = Math.max(0, Math.min(x, src.getWidth() - 1));
    int cy = Math.max(0, Math.min(y, src.getHeight() - 1));
    int cw = Math.max(1, Math.min(w, src.getWidth() - cx));
    int ch = Math.max(1, Math.min(h, src.getHeight() - cy));
    double f = Math.min(1.0, Math.min((double) fit.width() / cw, (double) fit.height() / ch));
    int dw = Math.max(1, (int) Math.round(cw * f));
    int dh = Math.max(1, (int) Math.round(ch * f));
    return encode(draw(src, cx, cy, cw, ch, dw, dh));
  }

  private static BufferedImage draw(BufferedImage src, int x, int y, int w, int h, int dw, int dh) {
    BufferedImage out = new BufferedImage(dw, dh, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = out.createGraphics();
    try {
      g.setRenderingHint(RenderingHints.KEY_INTERPOLATION, RenderingHints.VALUE_INTERPOLATION_BILINEAR);
      g.drawImage(src, 0, 0, dw, dh, x, y, x + w, y + h, null);
    } finally {
      g.dispose();
    }
    return out;
  }

  private static BufferedImage decode(String b64) {
    try {
      BufferedImage img = ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(b64)));
      if (img == null) {
        throw new IllegalStateException("the runtime's image is neither png nor jpeg");
      }
      return img;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot decode the runtime's image", e);
    }
  }

  private static String encode(BufferedImage img) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      ImageIO.write(img, "png", out);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot encode png", e);
    }
    return Base64.getEncoder().encodeToString(out.toByteArray());
  }
}
