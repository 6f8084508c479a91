package dev.agentdesk.terminal.tcap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link TcapReader#stream}: the same bytes as {@link TcapReader#next}, never more than one buffer at a time. */
class TcapStreamTest {
  private static final byte[] BIG = new byte[10_000];

  static {
    for (int i = 0; i < BIG.length; i++) {
      BIG[i] = (byte) ('a' + i % 26);
    }
  }

  private static final List<CaptureRecord> RECORDS = List.of(
      new CaptureRecord(Direction.OUTPUT, 0, "hello\r\n".getBytes(StandardCharsets.UTF_8)),
      new CaptureRecord(Direction.INPUT, 1_500, "y\r".getBytes(StandardCharsets.UTF_8)),
      new CaptureRecord(Direction.OUTPUT, 1_500, new byte[0]),
      new CaptureRecord(Direction.OUTPUT, 2_000, BIG));

  record Piece(Direction direction, long micros, byte[] bytes) {}

  private static List<Piece> stream(byte[] file, int buffer) throws IOException {
    List<Piece> out = new ArrayList<>();
    try (TcapReader r = TcapReader.open(new ByteArrayInputStream(file))) {
      r.stream(new byte[buffer], (d, t, b, off, len) -> out.add(new Piece(d, t, Arrays.copyOfRange(b, off, off + len))));
    }
    return out;
  }

  /** Joins consecutive pieces of one record back into records (an empty record gives no piece). */
  private static List<CaptureRecord> join(List<Piece> pieces) {
    List<CaptureRecord> out = new ArrayList<>();
    ByteArrayOutputStream cur = new ByteArrayOutputStream();
    Piece first = null;
    for (Piece p : pieces) {
      if (first != null && (p.direction() != first.direction() || p.micros() != first.micros())) {
        out.add(new CaptureRecord(first.direction(), first.micros(), cur.toByteArray()));
        cur.reset();
      }
      if (first == null || cur.size() == 0) {
        first = p;
      }
      cur.writeBytes(p.bytes());
    }
    if (first != null) {
      out.add(new CaptureRecord(first.direction(), first.micros(), cur.toByteArray()));
    }
    return out;
  }

  @Test
  void piecesAreAtMostOneBufferAndJoinBackIntoTheRecords() throws IOException {
    byte[] file = TcapReader.toBytes(RECORDS);
    List<Piece> pieces = stream(file, 4096);
    assertThat(pieces).allSatisfy(p -> assertThat(p.bytes().length).isBetween(1, 4096));
    // The 10,000-byte record comes as three pieces.
    assertThat(pieces.stream().filter(p -> p.micros() == 2_000)).hasSize(3);
    List<CaptureRecord> nonEmpty = RECORDS.stream().filter(r -> r.payload().length > 0).toList();
    assertThat(join(pieces)).isEqualTo(nonEmpty);
  }

  @Test
  void aRawFileIsOutputAtTimeZeroBufferByBuffer() throws IOException {
    List<Piece> pieces = stream(BIG, 3000);
    assertThat(pieces).extracting(p -> p.bytes().length).containsExactly(3000, 3000, 3000, 1000);
    assertThat(pieces).allSatisfy(p -> {
      assertThat(p.direction()).isEqualTo(Direction.OUTPUT);
      assertThat(p.micros()).isZero();
    });
    assertThat(join(pieces)).containsExactly(new CaptureRecord(Direction.OUTPUT, 0, BIG));
    assertThat(stream(new byte[0], 16)).isEmpty();
  }

  @Test
  void aPayloadCutShortIsTruncationAtItsRecordAfterThePiecesBeforeIt() throws IOException {
    byte[] file = TcapReader.toBytes(RECORDS);
    byte[] cut = Arrays.copyOf(file, file.length - 5);
    List<Piece> got = new ArrayList<>();
    int lastOffset = 9 + 13 + 7 + 13 + 2 + 13;
    try (TcapReader r = TcapReader.open(new ByteArrayInputStream(cut))) {
      assertThatThrownBy(() -> r.stream(new byte[4096], (d, t, b, off, len) -> got.add(new Piece(d, t, null))))
          .isInstanceOfSatisfying(CaptureFormatException.class,
              e -> assertThat(e.reason()).isEqualTo(CaptureFormatException.Reason.TRUNCATED))
          .hasMessageContaining("offset " + lastOffset)
          .hasMessageContaining("(9995 of 10000 bytes)");
    }
    assertThat(got.stream().filter(p -> p.micros() == 2_000)).hasSize(3);
  }

  @Test
  void anEmptyBufferIsRefused() throws IOException {
    try (TcapReader r = TcapReader.open(new ByteArrayInputStream(BIG))) {
      assertThatThrownBy(() -> r.stream(new byte[0], (d, t, b, off, len) -> {}))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  /** Stops a stream from inside the sink. */
  private static final class Enough extends RuntimeException {
    Enough() {
      super(null, null, false, false);
    }
  }

  @Test
  void theSourceIsPulledOneBufferAheadOfTheSinkNeverReadWhole() throws IOException {
    // 4 GiB that exist nowhere: no byte[] can hold them, so reading whole first cannot work.
    long[] handedOut = {0};
    InputStream endless = new InputStream() {
      final long size = 4L << 30;

      @Override
      public int read() {
        return handedOut[0] < size ? (int) (handedOut[0]++ & 0x3f) + 0x20 : -1;
      }

      @Override
      public int read(byte[] b, int off, int len) {
        if (handedOut[0] >= size) {
          return -1;
        }
        int n = (int) Math.min(len, size - handedOut[0]);
        Arrays.fill(b, off, off + n, (byte) 'x');
        handedOut[0] += n;
        return n;
      }
    };
    long[] delivered = {0};
    long[] maxAhead = {0};
    try (TcapReader r = TcapReader.open(endless)) {
      assertThatThrownBy(() -> r.stream(new byte[64 * 1024], (d, t, b, off, len) -> {
        delivered[0] += len;
        maxAhead[0] = Math.max(maxAhead[0], handedOut[0] - delivered[0]);
        if (delivered[0] >= 256L << 20) {
          throw new Enough();
        }
      })).isInstanceOf(Enough.class);
    }
    assertThat(delivered[0]).isBetween(256L << 20, (256L << 20) + 64 * 1024);
    // Between source and sink sits at most the look-ahead buffer the magic check reads through.
    assertThat(maxAhead[0]).isLessThanOrEqualTo(8192);
  }
}
