package dev.agentdesk.aci.wire;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.aci.WireException;
import dev.agentdesk.aci.WireException.Reason;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The binary frame codec: {@code u32 LE header_len | JSON header | payload area}. Decoding checks
 * the length prefix, the header against its schema definition, and every payload range; errors
 * are {@link WireException}s ({@code FRAME_TRUNCATED}, {@code RANGE_OUT_OF_BOUNDS},
 * {@code NEGATIVE_RANGE}, {@code OVERLAPPING_RANGES}, {@code MISSING_PAYLOAD}, or the header's
 * decode reasons). Also converts between the binary and the base64-in-JSON text forms.
 */
public final class BinaryFrames {
  private BinaryFrames() {}

  private static final Base64.Decoder B64 = Base64.getDecoder();
  private static final Base64.Encoder B64_OUT = Base64.getEncoder();

  /** Decodes one binary message; the buffer's position..limit is the whole message. */
  public static BinaryFrame decode(ByteBuffer message) {
    ByteBuffer buf = message.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    int total = buf.remaining();
    if (total < 4) {
      throw new WireException(Reason.FRAME_TRUNCATED, "", "a binary frame needs a 4-byte header length, got "
          + total + " bytes");
    }
    long headerLen = Integer.toUnsignedLong(buf.getInt());
    if (headerLen > total - 4) {
      throw new WireException(Reason.FRAME_TRUNCATED, "", "header_len " + headerLen + " runs past the "
          + total + "-byte frame");
    }
    byte[] headerBytes = new byte[(int) headerLen];
    buf.get(headerBytes);
    byte[] payload = new byte[buf.remaining()];
    buf.get(payload);
    JsonNode header = WireCodec.parse(new String(headerBytes, StandardCharsets.UTF_8));
    String type = header.path("type").isTextual() ? header.path("type").textValue() : null;
    if (BinaryFrameHeader.TYPE.equals(type)) {
      return new BinaryFrame.Media(WireCodec.decodeAs(BinaryFrameHeader.class, header), payload);
    }
    if (BinaryExecOutputHeader.TYPE.equals(type)) {
      return new BinaryFrame.ExecOutput(WireCodec.decodeAs(BinaryExecOutputHeader.class, header), payload);
    }
    throw new WireException(type == null ? Reason.MISSING_FIELD : Reason.UNKNOWN_TYPE, "/type",
        "a binary frame header is an observation or exec_output, got " + header.path("type"));
  }

  public static BinaryFrame decode(byte[] message) {
    return decode(ByteBuffer.wrap(message));
  }

  /** The wire bytes of a frame. */
  public static byte[] encode(BinaryFrame frame) {
    JsonNode header = frame instanceof BinaryFrame.Media m
        ? JsonEncoders.binaryFrameHeader(m.header())
        : JsonEncoders.binaryExecOutputHeader(((BinaryFrame.ExecOutput) frame).header());
    byte[] headerBytes = WireCodec.write(header).getBytes(StandardCharsets.UTF_8);
    byte[] payload = frame.payload();
    ByteBuffer out = ByteBuffer.allocate(4 + headerBytes.length + payload.length).order(ByteOrder.LITTLE_ENDIAN);
    out.putInt(headerBytes.length).put(headerBytes).put(payload);
    return out.array();
  }

  /**
   * The binary form of an image-bearing observation: each base64 {@code ref} becomes raw bytes in
   * the payload area (image first, then tiles in order). An observation with fields a binary
   * header has no place for (a11y tree, not_modified, ...) is refused rather than silently cut.
   */
  public static BinaryFrame.Media fromObservation(ObservationMsg o) {
    List<String> stranded = new ArrayList<>();
    if (o.tree() != null) { stranded.add("tree"); }
    if (o.treeText() != null) { stranded.add("tree_text"); }
    if (o.revision() != null) { stranded.add("revision"); }
    if (o.diffOf() != null) { stranded.add("diff_of"); }
    if (o.focus() != null) { stranded.add("focus"); }
    if (o.nodeCount() != null) { stranded.add("node_count"); }
    if (o.captureMs() != null) { stranded.add("capture_ms"); }
    if (o.elements() != null) { stranded.add("elements"); }
    if (o.delta() != null) { stranded.add("delta"); }
    if (o.notModified() != null) { stranded.add("not_modified"); }
    if (!stranded.isEmpty()) {
      throw new WireException(Reason.RULE_VIOLATION, "/" + stranded.get(0),
          "a binary frame header has no place for " + stranded + "; send this observation as text");
    }
    if (o.image() == null && o.tiles() == null) {
      throw new WireException(Reason.MISSING_PAYLOAD, "", "observation " + o.obsId() + " has no image or tiles");
    }
    ByteArrayOutputStream payload = new ByteArrayOutputStream();
    BinaryImageRef image = null;
    if (o.image() != null) {
      byte[] bytes = base64(o.image().ref(), "/image/ref");
      image = new BinaryImageRef(payload.size(), bytes.length, o.image().w(), o.image().h(), o.image().scope(),
          o.image().format());
      payload.writeBytes(bytes);
    }
    List<BinaryTile> tiles = null;
    if (o.tiles() != null) {
      tiles = new ArrayList<>();
      for (int i = 0; i < o.tiles().size(); i++) {
        Tile t = o.tiles().get(i);
        byte[] bytes = base64(t.ref(), "/tiles/" + i + "/ref");
        tiles.add(new BinaryTile(t.x(), t.y(), t.w(), t.h(), payload.size(), bytes.length));
        payload.writeBytes(bytes);
      }
    }
    BinaryFrameHeader header = new BinaryFrameHeader(o.obsId(), o.cause(), o.stream(), o.seq(), o.display(), image,
        tiles, o.frameHash(), o.pointer());
    return new BinaryFrame.Media(header, payload.toByteArray());
  }

  /** The text form of a media frame: raw bytes become base64 {@code ref}s. */
  public static ObservationMsg toObservation(BinaryFrame.Media frame) {
    BinaryFrameHeader h = frame.header();
    ObservationMsg.Builder b = ObservationMsg.builder(h.obsId()).cause(h.cause()).stream(h.stream()).seq(h.seq())
        .display(h.display()).frameHash(h.frameHash()).pointer(h.pointer());
    if (h.image() != null) {
      BinaryImageRef i = h.image();
      b.image(new ObservationImage(B64_OUT.encodeToString(frame.image()), i.w(), i.h(), i.scope(), i.format()));
    }
    if (h.tiles() != null) {
      List<Tile> tiles = new ArrayList<>();
      for (int i = 0; i < h.tiles().size(); i++) {
        BinaryTile t = h.tiles().get(i);
        tiles.add(new Tile(t.x(), t.y(), t.w(), t.h(), B64_OUT.encodeToString(frame.tile(i))));
      }
      b.tiles(tiles);
    }
    return b.build();
  }

  /** The binary form of an exec output chunk. */
  public static BinaryFrame.ExecOutput fromExecOutput(ExecOutputMsg m) {
    byte[] data = base64(m.dataB64(), "/data_b64");
    return new BinaryFrame.ExecOutput(
        new BinaryExecOutputHeader(m.cause(), m.seq(), m.channel(), new ByteRange(0, data.length)), data);
  }

  /** The text form of a binary exec output chunk. */
  public static ExecOutputMsg toExecOutput(BinaryFrame.ExecOutput frame) {
    BinaryExecOutputHeader h = frame.header();
    return ExecOutputMsg.of(h.cause(), h.seq(), h.channel(), frame.data());
  }

  private static byte[] base64(String text, String path) {
    try {
      return B64.decode(text);
    } catch (IllegalArgumentException e) {
      throw new WireException(Reason.INVALID_VALUE, path, "not base64: " + e.getMessage(), e);
    }
  }
}
