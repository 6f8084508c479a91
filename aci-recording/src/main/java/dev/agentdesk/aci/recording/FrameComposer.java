package dev.agentdesk.aci.recording;

import dev.agentdesk.aci.recording.Timeline.Delta;
import dev.agentdesk.aci.recording.Timeline.FrameSource;
import dev.agentdesk.aci.recording.Timeline.Still;
import dev.agentdesk.aci.recording.Timeline.TileRef;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferInt;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;

/**
 * Turns a frame source into image bytes. A still is its recorded file, untouched. A delta is
 * composed: from the nearest composed screen of its chain held in the canvas cache (or else its
 * keyframe, decoded), every later delta's tiles are painted in order, and the result is cached as a
 * canvas (the next step paints one delta onto it) and as PNG bytes (a revisit costs nothing).
 *
 * <p>Why not the SDK's {@code StreamCompositor}: it copies the whole screen out after every frame
 * and cannot start from a cached screen, which is what makes scrubbing cheap here. Both follow the
 * same rule (a keyframe replaces the picture, tiles are painted at x,y, a tile must fit).
 *
 * <p>Memory: canvases are 4 bytes a pixel (4 MB at 1280x800), bounded together by
 * {@link #CANVAS_BYTES}; encoded frames by {@link #ENCODED_BYTES}. Not thread-safe on its own;
 * {@link #frame} is synchronized.
 */
final class FrameComposer {
  static final long CANVAS_BYTES = 48L << 20;
  static final long ENCODED_BYTES = 16L << 20;

  private final Recording rec;
  private final Map<Integer, FrameSource> sources;
  private final Map<Integer, BufferedImage> canvases = new LinkedHashMap<>(16, 0.75f, true);
  private final Map<Integer, byte[]> encoded = new LinkedHashMap<>(16, 0.75f, true);
  private long canvasBytes;
  private long encodedBytes;

  FrameComposer(Recording rec, Map<Integer, FrameSource> sources) {
    this.rec = rec;
    this.sources = sources;
  }

  synchronized Playback.Frame frame(int step) {
    long t0 = System.nanoTime();
    FrameSource src = sources.get(step);
    if (src instanceof Still s) {
      byte[] bytes = rec.frame(s.ref());
      return new Playback.Frame(step, bytes, s.mimeType(), s.w(), s.h(), false, System.nanoTime() - t0);
    }
    Delta d = (Delta) src;
    byte[] png = encoded.get(step);
    if (png == null) {
      png = png(compose(d));
      remember(encoded, step, png, png.length, true);
    }
    return new Playback.Frame(step, png, "image/png", d.w(), d.h(), true, System.nanoTime() - t0);
  }

  /** The screen after delta {@code d}, cached; the caller must not change it. */
  private BufferedImage compose(Delta d) {
    BufferedImage cached = canvases.get(d.step());
    if (cached != null) {
      return cached;
    }
    // Walk back along the chain to a cached screen or the keyframe, then paint forward.
    Deque<Delta> todo = new ArrayDeque<>();
    BufferedImage base = null;
    FrameSource at = d;
    while (at instanceof Delta delta) {
      BufferedImage c = canvases.get(delta.step());
      if (c != null) {
        base = c;
        break;
      }
      todo.push(delta);
      at = sources.get(delta.previous());
    }
    BufferedImage canvas;
    if (base != null) {
      canvas = copy(base);
    } else {
      Still key = (Still) at;
      BufferedImage k = canvases.get(key.step());
      if (k == null) {
        k = rgb(decode(key.ref()), key.ref());
        remember(canvases, key.step(), k, pixelBytes(k), false);
      }
      canvas = copy(k);
    }
    while (!todo.isEmpty()) {
      paint(canvas, todo.pop());
    }
    remember(canvases, d.step(), canvas, pixelBytes(canvas), false);
    return canvas;
  }

  private void paint(BufferedImage canvas, Delta d) {
    for (TileRef t : d.tiles()) {
      BufferedImage tile = decode(t.ref());
      int w = tile.getWidth();
      int h = tile.getHeight();
      if (w != t.w() || h != t.h() || t.x() + w > canvas.getWidth() || t.y() + h > canvas.getHeight()) {
        throw new RecordingException(RecordingException.Kind.CORRUPT, null, "step " + d.step() + ": tile at "
            + t.x() + "," + t.y() + " (" + w + "x" + h + ") does not fit the " + canvas.getWidth() + "x"
            + canvas.getHeight() + " keyframe of step " + d.keyframe(), null);
      }
      canvas.setRGB((int) t.x(), (int) t.y(), w, h, tile.getRGB(0, 0, w, h, null, 0, w), 0, w);
    }
  }

  private BufferedImage decode(String ref) {
    byte[] bytes = rec.frame(ref);
    try {
      BufferedImage img = ImageIO.read(new ByteArrayInputStream(bytes));
      if (img == null) {
        throw new IOException("neither png nor jpeg");
      }
      return img;
    } catch (IOException e) {
      throw new RecordingException(RecordingException.Kind.CORRUPT, null, "frame " + ref + " of " + rec.dir()
          + " does not decode (" + e.getMessage() + ")", e);
    }
  }

  private static BufferedImage rgb(BufferedImage src, String ref) {
    if (src.getType() == BufferedImage.TYPE_INT_RGB) {
      return src;
    }
    BufferedImage out = new BufferedImage(src.getWidth(), src.getHeight(), BufferedImage.TYPE_INT_RGB);
    out.setRGB(0, 0, src.getWidth(), src.getHeight(), src.getRGB(0, 0, src.getWidth(), src.getHeight(), null, 0,
        src.getWidth()), 0, src.getWidth());
    return out;
  }

  private static BufferedImage copy(BufferedImage src) {
    BufferedImage out = new BufferedImage(src.getWidth(), src.getHeight(), BufferedImage.TYPE_INT_RGB);
    int[] from = ((DataBufferInt) src.getRaster().getDataBuffer()).getData();
    int[] to = ((DataBufferInt) out.getRaster().getDataBuffer()).getData();
    System.arraycopy(from, 0, to, 0, from.length);
    return out;
  }

  /** PNG with light deflate: a composed frame is encoded on demand, so speed beats a few kilobytes. */
  static byte[] png(BufferedImage img) {
    ImageWriter writer = ImageIO.getImageWritersByFormatName("png").next();
    ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 16);
    try (MemoryCacheImageOutputStream stream = new MemoryCacheImageOutputStream(out)) {
      writer.setOutput(stream);
      ImageWriteParam p = writer.getDefaultWriteParam();
      if (p.canWriteCompressed()) {
        p.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
        p.setCompressionQuality(0.75f); // deflate level 2
      }
      writer.write(null, new IIOImage(img, null, null), p);
    } catch (IOException e) {
      throw new RecordingException("cannot encode a composed frame: " + e.getMessage(), e);
    } finally {
      writer.dispose();
    }
    return out.toByteArray();
  }

  private static long pixelBytes(BufferedImage img) {
    return 4L * img.getWidth() * img.getHeight();
  }

  private <V> void remember(Map<Integer, V> cache, int step, V value, long bytes, boolean isEncoded) {
    cache.put(step, value);
    if (isEncoded) {
      encodedBytes += bytes;
    } else {
      canvasBytes += bytes;
    }
    Iterator<Map.Entry<Integer, V>> it = cache.entrySet().iterator();
    while ((isEncoded ? encodedBytes > ENCODED_BYTES : canvasBytes > CANVAS_BYTES) && cache.size() > 1) {
      Map.Entry<Integer, V> oldest = it.next();
      long freed = oldest.getValue() instanceof byte[] b ? b.length : pixelBytes((BufferedImage) oldest.getValue());
      it.remove();
      if (isEncoded) {
        encodedBytes -= freed;
      } else {
        canvasBytes -= freed;
      }
    }
  }
}
