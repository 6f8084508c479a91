package dev.agentdesk.aci.runtime.image;

/**
 * Packed 8-bit RGB pixels, row-major, no padding: pixel (x, y) starts at {@code 3 * (y * width + x)}.
 * The array is owned by the image once constructed; callers must not change it afterwards.
 *
 * <p>Immutable, so the frame hash is computed once per image: a capture of an unchanged screen
 * hands back the same image (see the damage-tracked capture), and asking it again costs nothing.
 */
public final class RgbImage {
  private final int width;
  private final int height;
  private final byte[] rgb;
  private volatile String frameHash;

  public RgbImage(int width, int height, byte[] rgb) {
    if (width < 1 || height < 1) {
      throw new IllegalArgumentException("image must be at least 1x1, got " + width + "x" + height);
    }
    if (rgb.length != width * height * 3) {
      throw new IllegalArgumentException("expected " + width * height * 3 + " bytes for " + width + "x" + height
          + ", got " + rgb.length);
    }
    this.width = width;
    this.height = height;
    this.rgb = rgb;
  }

  public int width() {
    return width;
  }

  public int height() {
    return height;
  }

  /** The pixels themselves (not a copy): read-only by contract. */
  public byte[] rgb() {
    return rgb;
  }

  /** The pixel at (x, y) as 0xRRGGBB. */
  public int rgbAt(int x, int y) {
    int i = 3 * (y * width + x);
    return ((rgb[i] & 0xFF) << 16) | ((rgb[i + 1] & 0xFF) << 8) | (rgb[i + 2] & 0xFF);
  }

  /**
   * The codec-independent content hash: XXH3-128 over the raw RGB bytes, seeded by the dimensions
   * ({@code (w << 16) | h}) so that the same bytes at another shape never collide.
   */
  public String frameHash() {
    String h = frameHash;
    if (h == null) {
      long seed = ((long) width << 16) | height;
      h = Xxh3.hash128(rgb, seed).hex();
      frameHash = h;
    }
    return h;
  }

  @Override
  public String toString() {
    return "RgbImage[" + width + "x" + height + "]";
  }
}
