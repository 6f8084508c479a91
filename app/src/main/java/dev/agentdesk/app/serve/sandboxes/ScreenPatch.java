package dev.agentdesk.app.serve.sandboxes;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What brings a viewer's canvas up to date: optionally a keyframe (the whole picture), then tiles
 * painted over it. Later tiles at the same place replace earlier ones, so merging patches never
 * grows past one keyframe plus one tile per grid cell: that is what bounds a slow viewer's backlog
 * and the picture a new viewer starts from.
 *
 * <p>The bytes a viewer gets, one binary WebSocket message per patch (docs/sandbox.md, "Live view"):
 *
 * <pre>
 *   u32 LE header_len | header: UTF-8 JSON | payload: the encoded images, back to back
 *   header = {"seq": N, "w": W, "h": H, "format": "png",
 *             "image": {"off": O, "len": L}            (only in a keyframe)
 *             "tiles": [{"x","y","w","h","off","len"}]} (painted after the image, in order)
 * </pre>
 *
 * The layout is the ACI binary frame's ({@code u32 LE header_len | JSON header | payload}, ADR
 * 0011) with a header of its own. Not thread-safe: the feed and each viewer's outbox guard theirs.
 */
final class ScreenPatch {
  /** One encoded image placed at x/y on the picture; the bytes are never changed after creation. */
  record Piece(int x, int y, int w, int h, byte[] bytes) {}

  private long seq = -1;
  private int width;
  private int height;
  private String format = "png";
  private Piece keyframe;
  private final Map<Long, Piece> tiles = new LinkedHashMap<>();

  /** A keyframe replaces everything before it. */
  void keyframe(long seq, String format, Piece image) {
    this.seq = seq;
    this.format = format;
    this.width = image.w();
    this.height = image.h();
    this.keyframe = image;
    tiles.clear();
  }

  /** A delta frame's tiles, painted over what is there. */
  void tiles(long seq, String format, List<Piece> changed) {
    this.seq = seq;
    this.format = format;
    for (Piece t : changed) {
      long key = ((long) t.x() << 32) | (t.y() & 0xffffffffL);
      tiles.remove(key); // re-inserted last: drawn after anything it overlaps
      tiles.put(key, t);
    }
  }

  /** Folds a later patch into this one. */
  void merge(ScreenPatch later) {
    if (later.keyframe != null) {
      keyframe(later.seq, later.format, later.keyframe);
    }
    if (later.width > 0 && keyframe == null) {
      width = later.width;
      height = later.height;
    }
    tiles(later.seq, later.format, new ArrayList<>(later.tiles.values()));
  }

  /** Forgets the picture (the feed stopped; the next session starts from its own keyframe). */
  void clear() {
    seq = -1;
    width = 0;
    height = 0;
    keyframe = null;
    tiles.clear();
  }

  int width() {
    return width;
  }

  int height() {
    return height;
  }

  ScreenPatch copy() {
    ScreenPatch p = new ScreenPatch();
    p.merge(this);
    return p;
  }

  boolean isEmpty() {
    return keyframe == null && tiles.isEmpty();
  }

  boolean hasKeyframe() {
    return keyframe != null;
  }

  int tileCount() {
    return tiles.size();
  }

  long seq() {
    return seq;
  }

  /** The picture size a tile-only patch paints on (the last keyframe's), for its header. */
  void size(int w, int h) {
    if (keyframe == null) {
      width = w;
      height = h;
    }
  }

  /** The binary WebSocket message. */
  byte[] encode() {
    StringBuilder h = new StringBuilder(96 + tiles.size() * 64);
    h.append("{\"seq\":").append(seq).append(",\"w\":").append(width).append(",\"h\":").append(height)
        .append(",\"format\":\"").append(format).append('"');
    long off = 0;
    if (keyframe != null) {
      h.append(",\"image\":{\"off\":0,\"len\":").append(keyframe.bytes().length).append('}');
      off = keyframe.bytes().length;
    }
    h.append(",\"tiles\":[");
    boolean first = true;
    for (Piece t : tiles.values()) {
      h.append(first ? "" : ",").append("{\"x\":").append(t.x()).append(",\"y\":").append(t.y())
          .append(",\"w\":").append(t.w()).append(",\"h\":").append(t.h())
          .append(",\"off\":").append(off).append(",\"len\":").append(t.bytes().length).append('}');
      off += t.bytes().length;
      first = false;
    }
    h.append("]}");
    byte[] header = h.toString().getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream out = new ByteArrayOutputStream((int) (4 + header.length + off));
    out.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(header.length).array());
    out.writeBytes(header);
    if (keyframe != null) {
      out.writeBytes(keyframe.bytes());
    }
    for (Piece t : tiles.values()) {
      out.writeBytes(t.bytes());
    }
    return out.toByteArray();
  }
}
