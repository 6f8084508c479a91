package dev.agentdesk.aci.client;

import dev.agentdesk.aci.AciClientException;
import dev.agentdesk.aci.wire.ObservationMsg;
import dev.agentdesk.aci.wire.Tile;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Base64;
import javax.imageio.ImageIO;

/**
 * Turns one screencast's pushed observations into full frames: a keyframe ({@code image}) replaces
 * the picture, a delta frame ({@code tiles}) is painted onto the last one. It also reports how many
 * seqs were skipped before each frame (frames the runtime dropped for a slow connection, or lost
 * across a resume). One compositor follows one stream id; it is not thread-safe.
 */
public final class StreamCompositor {
  private String stream;
  private long lastSeq = -1;
  private BufferedImage canvas;

  /**
   * A full frame of the stream.
   *
   * @param missed seqs skipped since the previous frame this compositor saw (0 for its first)
   * @param image a fresh copy the caller may keep or change
   */
  public record Frame(String stream, long seq, long missed, boolean keyframe, BufferedImage image) {}

  /**
   * Applies one stream observation.
   *
   * @throws AciClientException PROTOCOL_VIOLATION when the message is not a frame of this stream, its
   *     seq does not increase, a delta comes before any keyframe, a tile lies outside the keyframe, or
   *     an image does not decode
   */
  public Frame apply(ObservationMsg obs) {
    if (obs.stream() == null || obs.seq() == null) {
      throw violation("not a screencast frame: " + obs.obsId());
    }
    if (stream != null && !stream.equals(obs.stream())) {
      throw violation("frame of stream " + obs.stream() + " given to the compositor of stream " + stream);
    }
    long seq = obs.seq();
    if (seq <= lastSeq) {
      throw violation("seq " + seq + " after " + lastSeq + " in stream " + obs.stream());
    }
    boolean key = obs.image() != null;
    if (key) {
      BufferedImage img = decode(obs.image().ref());
      if (img.getWidth() != obs.image().w() || img.getHeight() != obs.image().h()) {
        throw violation("keyframe " + obs.obsId() + " says " + obs.image().w() + "x" + obs.image().h()
            + " but decodes to " + img.getWidth() + "x" + img.getHeight());
      }
      canvas = toRgb(img);
    } else {
      if (canvas == null) {
        throw violation("delta frame " + obs.obsId() + " before any keyframe");
      }
      // every tile is decoded and checked before any is painted, so a bad frame leaves the picture as it was
      java.util.List<BufferedImage> decoded = new java.util.ArrayList<>();
      for (Tile t : obs.tiles()) {
        decoded.add(checked(obs.obsId(), t));
      }
      for (int i = 0; i < decoded.size(); i++) {
        BufferedImage tile = decoded.get(i);
        int w = tile.getWidth();
        int h = tile.getHeight();
        canvas.setRGB((int) obs.tiles().get(i).x(), (int) obs.tiles().get(i).y(), w, h,
            tile.getRGB(0, 0, w, h, null, 0, w), 0, w);
      }
    }
    long missed = lastSeq < 0 ? 0 : seq - lastSeq - 1;
    stream = obs.stream();
    lastSeq = seq;
    return new Frame(stream, seq, missed, key, copy(canvas));
  }

  private BufferedImage checked(String obsId, Tile t) {
    BufferedImage tile = decode(t.ref());
    int w = tile.getWidth();
    int h = tile.getHeight();
    if (w != t.w() || h != t.h() || t.x() + w > canvas.getWidth() || t.y() + h > canvas.getHeight()) {
      throw violation("tile at " + t.x() + "," + t.y() + " (" + w + "x" + h + ") of " + obsId
          + " does not fit the " + canvas.getWidth() + "x" + canvas.getHeight() + " keyframe");
    }
    return tile;
  }

  private static BufferedImage decode(String base64) {
    try {
      BufferedImage img = ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(base64)));
      if (img == null) {
        throw violation("frame image is neither png nor jpeg");
      }
      return img;
    } catch (IOException | IllegalArgumentException e) {
      throw new AciClientException(AciClientException.Reason.PROTOCOL_VIOLATION,
          "frame image does not decode: " + e.getMessage(), e);
    }
  }

  private static BufferedImage toRgb(BufferedImage src) {
    BufferedImage out = new BufferedImage(src.getWidth(), src.getHeight(), BufferedImage.TYPE_INT_RGB);
    int[] px = src.getRGB(0, 0, src.getWidth(), src.getHeight(), null, 0, src.getWidth());
    out.setRGB(0, 0, src.getWidth(), src.getHeight(), px, 0, src.getWidth());
    return out;
  }

  private static BufferedImage copy(BufferedImage src) {
    return toRgb(src);
  }

  private static AciClientException violation(String message) {
    return new AciClientException(AciClientException.Reason.PROTOCOL_VIOLATION, message);
  }
}
