package dev.agentdesk.aci.runtime.image;

import java.awt.Point;
import java.awt.Transparency;
import java.awt.color.ColorSpace;
import java.awt.image.BufferedImage;
import java.awt.image.ComponentColorModel;
import java.awt.image.DataBuffer;
import java.awt.image.DataBufferByte;
import java.awt.image.PixelInterleavedSampleModel;
import java.awt.image.Raster;
import java.awt.image.WritableRaster;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;

/**
 * Baseline JPEG through the JDK's built-in (libjpeg-based) ImageIO writer. The RGB buffer is
 * wrapped, not copied, as a 3-band interleaved raster, so the only pass over the pixels is the
 * codec's own.
 */
public final class JpegEncoder {
  /** Quality used when a request gives none (the reference runtime's default). */
  public static final int DEFAULT_QUALITY = 80;

  static {
    ImageIO.setUseCache(false);
  }

  public byte[] encode(RgbImage image, int quality) {
    if (quality < 1 || quality > 100) {
      throw new IllegalArgumentException("quality out of range 1-100: " + quality);
    }
    int w = image.width();
    int h = image.height();
    DataBufferByte buffer = new DataBufferByte(image.rgb(), image.rgb().length);
    PixelInterleavedSampleModel sm = new PixelInterleavedSampleModel(DataBuffer.TYPE_BYTE, w, h, 3, w * 3,
        new int[] {0, 1, 2});
    WritableRaster raster = Raster.createWritableRaster(sm, buffer, new Point(0, 0));
    ComponentColorModel cm = new ComponentColorModel(ColorSpace.getInstance(ColorSpace.CS_sRGB), false, false,
        Transparency.OPAQUE, DataBuffer.TYPE_BYTE);
    BufferedImage bi = new BufferedImage(cm, raster, false, null);
    Iterator<ImageWriter> writers = ImageIO.getImageWritersByFormatName("jpeg");
    ImageWriter writer = writers.next();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(w * h / 4 + 4096);
    try (MemoryCacheImageOutputStream out = new MemoryCacheImageOutputStream(bytes)) {
      writer.setOutput(out);
      ImageWriteParam param = writer.getDefaultWriteParam();
      param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
      param.setCompressionQuality(quality / 100f);
      writer.write(null, new IIOImage(bi, null, null), param);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      writer.dispose();
    }
    return bytes.toByteArray();
  }
}
