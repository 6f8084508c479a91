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
 * painted over it. Later tiles at the same place and of the same size replace earlier ones, and a
 * piece covering the whole picture drops every tile before it, so merging patches never grows past
 * one keyframe plus one tile per grid cell (and the few boxes {@link LargeChanges} sends): that is
 * what bounds a slow viewer's backlog and the picture a new viewer starts from.
 *
 * <p>The bytes a viewer gets, one binary WebSocket message per patch (docs/sandbox.md, "Live view"):
 *
 * <pre>
 *   u32 LE header_len | header: UTF-8 JSON | payload: the encoded images, back to back
 *   header = {"seq": N, "w": W, "h": H, "format": "png",
 *             "image": {"off": O, "len": L}            (only in a keyframe)
 *             "tiles": [{"x","y","w","h","off","len"}]} (painted after the image, in order)
 *   a piece whose codec is not the patch's says so: "format": "jpeg" in its image or tile object
 * </pre>
 *
 * The layout is the ACI binary frame's ({@code u32 LE header_len | JSON header | payload}, ADR
 * 0011) with a header of its own. Not thread-safe: the feed and each viewer's outbox guard theirs.
 */
final class ScreenPatch {
  /**
   * One encoded image placed at x/y on the picture; the bytes are never changed after creation.
   * {@code format}: its codec when it is not the patch's (a lossy piece among png tiles), else null.
   */
  record Piece(int x, int y, int w, int h, byte[] bytes, String format) {
    Piece(int x, int y, int w, int h, byte[] bytes) {
      this(x, y, w, h, bytes, null);
    }

    boolean intersects(int bx, int by, int bw, int bh) {
      return x < bx + bw && bx < x + w && y < by + bh && by < y + h;
    }
  }

  /** Tiles are replaced by place and size: a piece of another size at the same corner is drawn after it. */
  private record Place(int x, int y, int w, int h) {}

  private long seq = -1;
  private int width;
  private int height;
  private String format = "png";
  private Piece keyframe;
  private final Map<Place, Piece> tiles = new LinkedHashMap<>();

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
      if (width > 0 && t.x() <= 0 && t.y() <= 0 && t.x() + t.w() >= width && t.y() + t.h() >= height) {
        tiles.clear(); // it covers the whole picture: nothing drawn before it shows
      }
      Place key = new Place(t.x(), t.y(), t.w(), t.h());
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

  String format() {
    return format;
  }

  /** The keyframe (if any) then the tiles, in the order they are painted. */
  List<Piece> pieces() {
    List<Piece> all = new ArrayList<>(tiles.size() + 1);
    if (keyframe != null) {
      all.add(keyframe);
    }
    all.addAll(tiles.values());
    return all;
  }

  /** The encoded images' bytes, header aside. */
  long payloadBytes() {
    long n = 0;
    for (Piece p : pieces()) {
      n += p.bytes().length;
    }
    return n;
  }

  /** Pixels the pieces cover, overlaps counted twice (a measure of how much changed). */
  long paintedArea() {
    long n = 0;
    for (Piece p : pieces()) {
      n += (long) p.w() * p.h();
    }
    return n;
  }

  /** The box around every piece as {x, y, w, h}; null when empty. */
  int[] bounds() {
    if (isEmpty()) {
      return null;
    }
    int x0 = Integer.MAX_VALUE;
    int y0 = Integer.MAX_VALUE;
    int x1 = Integer.MIN_VALUE;
    int y1 = Integer.MIN_VALUE;
    for (Piece p : pieces()) {
      x0 = Math.min(x0, p.x());
      y0 = Math.min(y0, p.y());
      x1 = Math.max(x1, p.x() + p.w());
      y1 = Math.max(y1, p.y() + p.h());
    }
    return new int[] {x0, y0, x1 - x0, y1 - y0};
  }

  /** The picture size a tile-only patch paints on (the last keyframe's), for its header. */
  void size(int w, int h) {
    if (keyframe == null) {
      width = w;
      height = h;
    }
  }

  private void formatOf(StringBuilder h, Piece p) {
    if (p.format() != null && !p.format().equals(format)) {
      h.append(",\"format\":\"").append(p.format()).append('"');
    }
  }

  /** The binary WebSocket message. */
  byte[] encode() {
    StringBuilder h = new StringBuilder(96 + tiles.size() * 64);
    h.append("{\"seq\":").append(seq).append(",\"w\":").append(width).append(",\"h\":").append(height)
        .append(",\"format\":\"").append(format).append('"');
    long off = 0;
    if (keyframe != null) {
      h.append(",\"image\":{\"off\":0,\"len\":").append(keyframe.bytes().length);
      formatOf(h, keyframe);
      h.append('}');
      off = keyframe.bytes().length;
    }
    h.append(",\"tiles\":[");
    boolean first = true;
    for (Piece t : tiles.values()) {
      h.append(first ? "" : ",").append("{\"x\":").append(t.x()).append(",\"y\":").append(t.y())
          .append(",\"w\":").append(t.w()).append(",\"h\":").append(t.h())
          .append(",\"off\":").append(off).append(",\"len\":").append(t.bytes().length);
      formatOf(h, t);
      h.append('}');
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
