package dev.agentdesk.aci.runtime.image;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.Adler32;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * A truecolour PNG writer tuned for screenshots: 8-bit RGB, the "Up" filter on every row but the
 * first (desktop content repeats vertically far more than it varies, and Up costs one subtraction
 * per byte) and a fast deflate level (1 by default).
 *
 * <p>The rows are cut into strips that are deflated independently, the way pigz does it: every
 * strip but the last ends on a byte-aligned sync flush, so their concatenation is one valid zlib
 * stream, and the stream's Adler-32 is combined from the strips' own. That lets strips be
 * compressed in parallel, and lets an encoder keep the previous image's strips: consecutive
 * screenshots of a desktop differ in a few places, and only the strips that differ are deflated
 * again. Each strip starts with an empty dictionary, which costs a few hundred bytes per strip.
 *
 * <p>An encoder remembers one image and its strips; {@link #encode} is synchronized.
 */
public final class PngEncoder {
  /** The default deflate level. */
  public static final int DEFAULT_LEVEL = 1;
  /** Below this many filtered bytes one thread is faster than a hand-off. */
  static final int PARALLEL_MIN_BYTES = 256 * 1024;
  /**
   * Filtered bytes per independently deflated strip (about 68 rows at 1280 px): small enough that
   * a local change re-deflates a small part of the screen, large enough that restarting the
   * dictionary per strip costs around one percent of the output.
   */
  static final int STRIP_BYTES = 256 * 1024;
  private static final byte[] SIGNATURE = {(byte) 137, 80, 78, 71, 13, 10, 26, 10};

  private final int level;
  private RgbImage previous;
  private Strip[] previousStrips;

  public PngEncoder() {
    this(DEFAULT_LEVEL);
  }

  public PngEncoder(int level) {
    if (level < 0 || level > 9) {
      throw new IllegalArgumentException("deflate level must be 0-9, got " + level);
    }
    this.level = level;
  }

  /**
   * Encodes {@code image}. Strips whose rows (and the row above, which the Up filter reads) equal
   * those of the previous image given to this encoder reuse that image's deflated strip and its
   * checksum, so an agent's next screenshot after a local change costs the changed strips only.
   * The output is the same PNG a fresh encoder would write.
   */
  public synchronized byte[] encode(RgbImage image) {
    int w = image.width();
    int h = image.height();
    int rowLen = w * 3 + 1;
    int stripRows = Math.max(1, STRIP_BYTES / rowLen);
    int strips = (h + stripRows - 1) / stripRows;
    boolean comparable = previous != null && previous.width() == w && previous.height() == h
        && previousStrips.length == strips;
    Strip[] parts = new Strip[strips];
    int[] todo = new int[strips];
    int changed = 0;
    for (int s = 0; s < strips; s++) {
      int first = s * stripRows;
      int last = Math.min(h, first + stripRows);
      if (comparable && sameRows(previous, image, Math.max(0, first - 1), last)) {
        parts[s] = previousStrips[s];
      } else {
        todo[changed++] = s;
      }
    }
    int jobs = changed;
    Bands.run(jobs, Bands.count(jobs, (long) stripRows * rowLen, PARALLEL_MIN_BYTES), (index, from, to) -> {
      for (int k = from; k < to; k++) {
        int s = todo[k];
        int first = s * stripRows;
        parts[s] = strip(image, first, Math.min(h, first + stripRows));
      }
      return null;
    });
    previous = image;
    previousStrips = parts;

    long adler = 1;
    int total = 2 + 4;
    for (Strip p : parts) {
      adler = adlerConcat(adler, p.adler, (long) (p.last - p.first) * rowLen);
      total += p.deflated.length;
    }
    byte[] idat = new byte[total];
    idat[0] = 0x78; // zlib header: deflate, 32 KiB window
    idat[1] = 0x01; // fastest-level flag; (0x78 * 256 + 0x01) % 31 == 0
    int o = 2;
    for (Strip p : parts) {
      System.arraycopy(p.deflated, 0, idat, o, p.deflated.length);
      o += p.deflated.length;
    }
    putInt(idat, o, (int) adler);

    ByteArrayOutputStream out = new ByteArrayOutputStream(idat.length + 64);
    out.writeBytes(SIGNATURE);
    byte[] ihdr = new byte[13];
    putInt(ihdr, 0, w);
    putInt(ihdr, 4, h);
    ihdr[8] = 8;
    ihdr[9] = 2;
    chunk(out, "IHDR", ihdr, ihdr.length);
    chunk(out, "IDAT", idat, idat.length);
    chunk(out, "IEND", new byte[0], 0);
    return out.toByteArray();
  }

  /** One strip's raw-deflated bytes and the Adler-32 of its filtered bytes. */
  private record Strip(int first, int last, byte[] deflated, long adler) {}

  private static final int ADLER_MOD = 65521;

  /**
   * The Adler-32 of the concatenation X‖Y from adler(X), adler(Y) and |Y|, so that strips can be
   * checksummed separately. With A = 1 + Σ bytes and B = Σ of A after each byte: A(X‖Y) = A(X) + A(Y) − 1
   * and B(X‖Y) = B(X) + B(Y) + |Y|·(A(X) − 1), all mod 65521.
   */
  static long adlerConcat(long adlerX, long adlerY, long lengthY) {
    long ax = adlerX & 0xFFFF;
    long bx = adlerX >>> 16;
    long ay = adlerY & 0xFFFF;
    long by = adlerY >>> 16;
    long a = (ax + ay + ADLER_MOD - 1) % ADLER_MOD;
    long b = (bx + by + (lengthY % ADLER_MOD) * ((ax + ADLER_MOD - 1) % ADLER_MOD)) % ADLER_MOD;
    return (b << 16) | a;
  }

  private static boolean sameRows(RgbImage a, RgbImage b, int first, int last) {
    int stride = a.width() * 3;
    return java.util.Arrays.equals(a.rgb(), first * stride, last * stride, b.rgb(), first * stride, last * stride);
  }

  /**
   * Filters rows [first, last), checksums and raw-deflates them. Every strip but the image's last
   * ends on a byte-aligned sync flush, so strips concatenate into one deflate stream.
   */
  private Strip strip(RgbImage image, int first, int last) {
    boolean finish = last == image.height();
    int stride = image.width() * 3;
    int rowLen = stride + 1;
    byte[] src = image.rgb();
    byte[] filtered = new byte[(last - first) * rowLen];
    for (int y = first; y < last; y++) {
      int out = (y - first) * rowLen;
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
    int off = 0;
    int len = filtered.length;
    Adler32 adler = new Adler32();
    adler.update(filtered, off, len);
    Deflater d = new Deflater(level, true);
    try {
      d.setInput(filtered, off, len);
      ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(1024, len / 8));
      byte[] buf = new byte[64 * 1024];
      if (finish) {
        d.finish();
        while (!d.finished()) {
          int n = d.deflate(buf);
          out.write(buf, 0, n);
        }
      } else {
        // a sync flush ends the strip on a byte boundary without a final block
        int n;
        do {
          n = d.deflate(buf, 0, buf.length, Deflater.SYNC_FLUSH);
          out.write(buf, 0, n);
        } while (n == buf.length || !d.needsInput());
      }
      return new Strip(first, last, out.toByteArray(), adler.getValue());
    } finally {
      d.end();
    }
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
