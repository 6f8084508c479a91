package dev.agentdesk.aci.wire;

import dev.agentdesk.aci.WireException;
import dev.agentdesk.aci.WireException.Reason;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * One binary WebSocket message of a binary-negotiated session, decoded: its JSON header and the
 * raw payload area. Layout on the wire: {@code u32 LE header_len | header JSON | payload area};
 * every range of the header lies inside the payload area and no two overlap (checked on
 * construction). Encode and decode with {@link BinaryFrames}.
 */
public sealed interface BinaryFrame permits BinaryFrame.Media, BinaryFrame.ExecOutput {
  /** A copy of the payload area. */
  byte[] payload();

  /** An image-bearing observation (a one-shot screenshot or a screencast frame). */
  record Media(BinaryFrameHeader header, byte[] payload) implements BinaryFrame {
    public Media {
      Check.required(header, "header");
      payload = Check.required(payload, "payload").clone();
      if (header.image() == null && header.tiles() == null) {
        throw new WireException(Reason.MISSING_PAYLOAD, "", "a media frame carries an image or tiles");
      }
      List<long[]> ranges = new ArrayList<>();
      if (header.image() != null) {
        ranges.add(new long[] {header.image().off(), header.image().len(), -1});
      }
      if (header.tiles() != null) {
        for (int i = 0; i < header.tiles().size(); i++) {
          ranges.add(new long[] {header.tiles().get(i).off(), header.tiles().get(i).len(), i});
        }
      }
      checkRanges(ranges, payload.length);
    }

    /** The encoded image bytes ({@code header.image()} must be present). */
    public byte[] image() {
      BinaryImageRef image = header.image();
      if (image == null) {
        throw new IllegalStateException("frame " + header.obsId() + " carries tiles, not an image");
      }
      return slice(payload, image.off(), image.len());
    }

    /** The encoded bytes of tile {@code index}. */
    public byte[] tile(int index) {
      if (header.tiles() == null) {
        throw new IllegalStateException("frame " + header.obsId() + " carries an image, not tiles");
      }
      BinaryTile t = header.tiles().get(index);
      return slice(payload, t.off(), t.len());
    }

    @Override
    public byte[] payload() {
      return payload.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Media m && header.equals(m.header) && Arrays.equals(payload, m.payload);
    }

    @Override
    public int hashCode() {
      return header.hashCode() * 31 + Arrays.hashCode(payload);
    }

    @Override
    public String toString() {
      return "Media[" + header + ", payload=" + payload.length + " bytes]";
    }
  }

  /** One raw stdout/stderr chunk of a streamed exec. */
  record ExecOutput(BinaryExecOutputHeader header, byte[] payload) implements BinaryFrame {
    public ExecOutput {
      Check.required(header, "header");
      payload = Check.required(payload, "payload").clone();
      List<long[]> ranges = new ArrayList<>();
      ranges.add(new long[] {header.data().off(), header.data().len(), -2});
      checkRanges(ranges, payload.length);
    }

    /** The chunk's bytes. */
    public byte[] data() {
      return slice(payload, header.data().off(), header.data().len());
    }

    @Override
    public byte[] payload() {
      return payload.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof ExecOutput m && header.equals(m.header) && Arrays.equals(payload, m.payload);
    }

    @Override
    public int hashCode() {
      return header.hashCode() * 31 + Arrays.hashCode(payload);
    }

    @Override
    public String toString() {
      return "ExecOutput[" + header + ", payload=" + payload.length + " bytes]";
    }
  }

  private static String where(long id) {
    return id == -1 ? "/image" : id == -2 ? "/data" : "/tiles/" + id;
  }

  /** Each {off, len, id} lies inside {@code [0, payloadLength)} and none overlaps another. */
  private static void checkRanges(List<long[]> ranges, int payloadLength) {
    for (long[] r : ranges) {
      if (r[0] < 0 || r[1] < 0) {
        throw new WireException(Reason.NEGATIVE_RANGE, where(r[2]), "negative off/len " + r[0] + "/" + r[1]);
      }
      // Written as len > length - off so that a huge off + len cannot overflow into range.
      if (r[0] > payloadLength || r[1] > payloadLength - r[0]) {
        throw new WireException(Reason.RANGE_OUT_OF_BOUNDS, where(r[2]),
            "bytes [" + r[0] + ", " + r[0] + "+" + r[1] + ") lie past the " + payloadLength + "-byte payload area");
      }
    }
    List<long[]> nonEmpty = new ArrayList<>(ranges.stream().filter(r -> r[1] > 0).toList());
    nonEmpty.sort(Comparator.comparingLong(r -> r[0]));
    for (int i = 1; i < nonEmpty.size(); i++) {
      long[] prev = nonEmpty.get(i - 1);
      long[] cur = nonEmpty.get(i);
      if (cur[0] < prev[0] + prev[1]) {
        throw new WireException(Reason.OVERLAPPING_RANGES, where(cur[2]),
            "bytes at " + cur[0] + " overlap " + where(prev[2]).substring(1) + " [" + prev[0] + ", "
                + (prev[0] + prev[1]) + ")");
      }
    }
  }

  private static byte[] slice(byte[] payload, long off, long len) {
    return Arrays.copyOfRange(payload, (int) off, (int) (off + len));
  }
}
