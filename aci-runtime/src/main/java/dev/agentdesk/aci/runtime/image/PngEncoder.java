package dev.agentdesk.aci.runtime.image;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * A minimal truecolour PNG writer tuned for screenshots: 8-bit RGB, the "Up" filter on every row
 * (desktop content repeats vertically far more than it varies, and Up costs one subtraction per
 * byte) and a fast deflate level. Level 1 is the default: on desktop frames it is several times
 * faster than level 6 for a file only slightly larger (see docs/benchmarks.md).
 */
public final class PngEncoder {
  /** The default deflate level. */
  public static final int DEFAULT_LEVEL = 1;
  private static final byte[] SIGNATURE = {(byte) 137, 80, 78, 71, 13, 10, 26, 10};

  private final int level;

  public PngEncoder() {
    this(DEFAULT_LEVEL);
  }

  public PngEncoder(int level) {
    if (level < 0 || level > 9) {
      throw new IllegalArgumentException("deflate level must be 0-9, got " + level);
    }
    this.level = level;
  }

  public byte[] encode(RgbImage image) {
    int w = image.width();
    int h = image.height();
    int stride = w * 3;
    byte[] src = image.rgb();
    byte[] filtered = new byte[(stride + 1) * h];
    for (int y = 0; y < h; y++) {
      int out = y * (stride + 1);
      int in = y * stride;
      if (y == 0) {
        filtered[out] = 0;
        System.arraycopy(src, in, filtered, out + 1, stride);
      } else {
        filtered[out] = 2;
        int prev = in - stride;
        for (int i = 0; i < stride; i++) {
          filtered[out + 1 + i] = (byte) (src[in + i] - src[prev + i]);
        }
      }
    }
    Deflater deflater = new Deflater(level);
    ByteArrayOutputStream out = new ByteArrayOutputStream(filtered.length / 4 + 1024);
    out.writeBytes(SIGNATURE);
    byte[] ihdr = new byte[13];
    putInt(ihdr, 0, w);
    putInt(ihdr, 4, h);
    ihdr[8] = 8;
    ihdr[9] = 2;
    chunk(out, "IHDR", ihdr, ihdr.length);
    try {
      deflater.setInput(filtered);
      deflater.finish();
      byte[] buf = new byte[Math.max(64 * 1024, filtered.length / 8)];
      while (!deflater.finished()) {
        int n = deflater.deflate(buf);
        if (n > 0) {
          chunk(out, "IDAT", buf, n);
        }
      }
    } finally {
      deflater.end();
    }
    chunk(out, "IEND", new byte[0], 0);
    return out.toByteArray();
  }

  private static void chunk(ByteArrayOutputStream out, String type, byte[] data, int len) {
    byte[] header = new byte[8];
    putInt(header, 0, len);
    byte[] t = type.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(t, 0, header, 4, 4);
    out.write(header, 0, 8);
    out.write(data, 0, len);
    CRC32 crc = new CRC32();
    crc.update(t);
    crc.update(data, 0, len);
    byte[] c = new byte[4];
    putInt(c, 0, (int) crc.getValue());
    out.write(c, 0, 4);
  }

  private static void putInt(byte[] b, int off, int v) {
    b[off] = (byte) (v >>> 24);
    b[off + 1] = (byte) (v >>> 16);
    b[off + 2] = (byte) (v >>> 8);
    b[off + 3] = (byte) v;
  }
}
