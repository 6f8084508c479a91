package dev.agentdesk.aci.runtime.image;

/**
 * Area-average (box filter) downscaling: every delivered pixel is the coverage-weighted mean of the
 * source pixels under it. Unlike nearest-neighbour (what the reference runtime does) it keeps thin
 * text strokes and one-pixel borders visible after a 1.5x or 2x reduction.
 */
public final class Downscale {
  private Downscale() {}

  /**
   * The delivered size for a long-edge cap: unchanged when the image already fits, else scaled so
   * that the long edge equals {@code maxLongEdge}, each side rounded and at least 1.
   */
  public static int[] fit(int width, int height, int maxLongEdge) {
    int longEdge = Math.max(width, height);
    if (longEdge <= maxLongEdge) {
      return new int[] {width, height};
    }
    double f = (double) maxLongEdge / longEdge;
    int w = width >= height ? maxLongEdge : Math.max(1, (int) Math.round(width * f));
    int h = height > width ? maxLongEdge : Math.max(1, (int) Math.round(height * f));
    return new int[] {w, h};
  }

  /** Scales {@code src} so that its long edge is at most {@code maxLongEdge}. */
  public static RgbImage toLongEdge(RgbImage src, int maxLongEdge) {
    int[] size = fit(src.width(), src.height(), maxLongEdge);
    if (size[0] == src.width() && size[1] == src.height()) {
      return src;
    }
    return resize(src, size[0], size[1]);
  }

  /** Area-average resize to exactly {@code dw x dh}; only reduction is supported. */
  public static RgbImage resize(RgbImage src, int dw, int dh) {
    if (dw > src.width() || dh > src.height()) {
      throw new IllegalArgumentException("only downscaling is supported");
    }
    Weights wx = Weights.of(src.width(), dw);
    Weights wy = Weights.of(src.height(), dh);
    int sw = src.width();
    byte[] s = src.rgb();
    // Horizontal pass into 16.16 fixed-point rows, then vertical pass into bytes.
    int[] horiz = new int[dw * 3 * src.height()];
    for (int y = 0; y < src.height(); y++) {
      int rowIn = y * sw * 3;
      int rowOut = y * dw * 3;
      for (int x = 0; x < dw; x++) {
        int first = wx.first[x];
        int[] w = wx.weights[x];
        long r = 0;
        long g = 0;
        long b = 0;
        for (int k = 0; k < w.length; k++) {
          int p = rowIn + 3 * (first + k);
          r += (long) (s[p] & 0xFF) * w[k];
          g += (long) (s[p + 1] & 0xFF) * w[k];
          b += (long) (s[p + 2] & 0xFF) * w[k];
        }
        horiz[rowOut + 3 * x] = (int) (r >> 8);
        horiz[rowOut + 3 * x + 1] = (int) (g >> 8);
        horiz[rowOut + 3 * x + 2] = (int) (b >> 8);
      }
    }
    byte[] out = new byte[dw * dh * 3];
    int rowLen = dw * 3;
    long[] accum = new long[rowLen];
    for (int y = 0; y < dh; y++) {
      java.util.Arrays.fill(accum, 0);
      int first = wy.first[y];
      int[] w = wy.weights[y];
      for (int k = 0; k < w.length; k++) {
        int rowIn = (first + k) * rowLen;
        int wk = w[k];
        for (int i = 0; i < rowLen; i++) {
          accum[i] += (long) horiz[rowIn + i] * wk;
        }
      }
      int rowOut = y * rowLen;
      for (int i = 0; i < rowLen; i++) {
        // weights sum to 1<<16; horizontal values carry 8 fractional bits: 24 in total, round half up.
        int v = (int) ((accum[i] + (1 << 23)) >> 24);
        out[rowOut + i] = (byte) Math.min(255, v);
      }
    }
    return new RgbImage(dw, dh, out);
  }

  /** Per output sample: the first source index it covers and a 16.16 weight per covered sample. */
  private static final class Weights {
    final int[] first;
    final int[][] weights;

    private Weights(int[] first, int[][] weights) {
      this.first = first;
      this.weights = weights;
    }

    static Weights of(int srcLen, int dstLen) {
      int[] first = new int[dstLen];
      int[][] weights = new int[dstLen][];
      double scale = (double) srcLen / dstLen;
      for (int i = 0; i < dstLen; i++) {
        double start = i * scale;
        double end = Math.min(srcLen, (i + 1) * scale);
        int s0 = (int) Math.floor(start);
        int s1 = Math.min(srcLen, (int) Math.ceil(end));
        int[] w = new int[s1 - s0];
        int total = 0;
        for (int k = 0; k < w.length; k++) {
          double lo = Math.max(start, s0 + k);
          double hi = Math.min(end, s0 + k + 1);
          w[k] = (int) Math.round((hi - lo) / scale * 65536);
          total += w[k];
        }
        // Put the rounding remainder on the largest weight so that every row sums to exactly 1.0.
        int largest = 0;
        for (int k = 1; k < w.length; k++) {
          if (w[k] > w[largest]) {
            largest = k;
          }
        }
        w[largest] += 65536 - total;
        first[i] = s0;
        weights[i] = w;
      }
      return new Weights(first, weights);
    }
  }
}
