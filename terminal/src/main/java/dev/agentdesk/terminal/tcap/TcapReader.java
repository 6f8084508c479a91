package dev.agentdesk.terminal.tcap;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads a capture: framed .tcap records, or a legacy .raw file as one output record. {@link #next}
 * reads records one at a time, so a long capture is never held in memory whole (except a .raw file,
 * which is one record by definition); {@link #stream} goes further and hands out every payload in
 * pieces of a caller's buffer, so memory stays at that buffer whatever the size of the file or of
 * one record.
 */
public final class TcapReader implements Closeable {
  private final InputStream in;
  private final boolean framed;
  private long offset;
  private long lastMicros;
  private boolean rawDone;

  /** Receives a capture's bytes piece by piece, in file order (see {@link #stream}). */
  @FunctionalInterface
  public interface ChunkSink {
    /**
     * {@code buf[off..off+len)} is the next piece of a record's payload; the buffer is reused for
     * the next piece, so copy what must outlive the call. A record is one or more pieces with the
     * same direction and time; an empty record gives no piece.
     */
    void accept(Direction direction, long elapsedMicros, byte[] buf, int off, int len) throws IOException;
  }

  /** A record header as read: where the record starts, what it is, how long its payload is. */
  private record Header(long offset, Direction direction, long micros, int length) {}

  private TcapReader(InputStream in) throws IOException {
    this.in = in.markSupported() ? in : new BufferedInputStream(in);
    this.in.mark(TcapFormat.MAGIC.length);
    byte[] head = this.in.readNBytes(TcapFormat.MAGIC.length);
    if (Arrays.equals(head, TcapFormat.MAGIC)) {
      framed = true;
      offset = TcapFormat.MAGIC.length;
    } else {
      framed = false;
      this.in.reset();
    }
  }

  /** Opens a stream; it is read lazily and closed by {@link #close()}. */
  public static TcapReader open(InputStream in) throws IOException {
    return new TcapReader(in);
  }

  /** Opens a file. */
  public static TcapReader open(Path file) throws IOException {
    return new TcapReader(Files.newInputStream(file));
  }

  /** Reads every record of a file. */
  public static List<CaptureRecord> readAll(Path file) throws IOException {
    try (TcapReader r = open(file)) {
      List<CaptureRecord> out = new ArrayList<>();
      for (CaptureRecord rec = r.next(); rec != null; rec = r.next()) {
        out.add(rec);
      }
      return out;
    }
  }

  /** True if the input carried the .tcap magic (false for a legacy .raw capture). */
  public boolean framed() {
    return framed;
  }

  /**
   * The next record, or null at a clean end of file.
   *
   * @throws CaptureFormatException when the file ends inside a record or a record is malformed
   */
  public CaptureRecord next() throws IOException {
    if (!framed) {
      if (rawDone) {
        return null;
      }
      rawDone = true;
      return new CaptureRecord(Direction.OUTPUT, 0, in.readAllBytes());
    }
    Header h = nextHeader();
    if (h == null) {
      return null;
    }
    byte[] payload = in.readNBytes(h.length());
    if (payload.length < h.length()) {
      throw truncatedPayload(h, payload.length);
    }
    return new CaptureRecord(h.direction(), h.micros(), payload);
  }

  /**
   * Hands every remaining record to {@code sink} in pieces of at most {@code buffer.length}
   * bytes, without holding a record whole; a .raw file is output at time 0 read buffer by buffer.
   * Reading stops at the first malformed record: the pieces before it have been delivered.
   *
   * @throws CaptureFormatException when the file ends inside a record or a record is malformed
   * @throws IllegalArgumentException when {@code buffer} is empty
   */
  public void stream(byte[] buffer, ChunkSink sink) throws IOException {
    if (buffer.length == 0) {
      throw new IllegalArgumentException("stream needs a buffer of at least one byte");
    }
    if (!framed) {
      if (rawDone) {
        return;
      }
      rawDone = true;
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        if (n > 0) {
          sink.accept(Direction.OUTPUT, 0, buffer, 0, n);
        }
      }
      return;
    }
    for (Header h = nextHeader(); h != null; h = nextHeader()) {
      int left = h.length();
      while (left > 0) {
        int n = in.read(buffer, 0, Math.min(left, buffer.length));
        if (n < 0) {
          throw truncatedPayload(h, h.length() - left);
        }
        left -= n;
        sink.accept(h.direction(), h.micros(), buffer, 0, n);
      }
    }
  }

  /**
   * Reads and checks the next record header and moves {@link #offset} past its record; null at a
   * clean end of file.
   */
  private Header nextHeader() throws IOException {
    long recordOffset = offset;
    byte[] header = in.readNBytes(TcapFormat.HEADER_BYTES);
    if (header.length == 0) {
      return null;
    }
    if (header.length < TcapFormat.HEADER_BYTES) {
      throw new CaptureFormatException(CaptureFormatException.Reason.TRUNCATED, recordOffset,
          "truncated: the file ends inside a record header (" + header.length + " of " + TcapFormat.HEADER_BYTES + " bytes)");
    }
    Direction dir = Direction.fromWire(header[0] & 0xff);
    if (dir == null) {
      throw new CaptureFormatException(CaptureFormatException.Reason.BAD_DIRECTION, recordOffset,
          "direction byte is " + (header[0] & 0xff) + ", expected 0 (output) or 1 (input)");
    }
    long micros = 0;
    for (int i = 8; i >= 1; i--) {
      micros = (micros << 8) | (header[i] & 0xffL);
    }
    long length = 0;
    for (int i = 12; i >= 9; i--) {
      length = (length << 8) | (header[i] & 0xffL);
    }
    if (micros < 0 || micros < lastMicros) {
      throw new CaptureFormatException(CaptureFormatException.Reason.TIME_WENT_BACKWARDS, recordOffset,
          "elapsed time " + Long.toUnsignedString(micros) + " µs is before the previous record's " + lastMicros + " µs");
    }
    if (length > TcapFormat.MAX_PAYLOAD) {
      throw new CaptureFormatException(CaptureFormatException.Reason.OVERSIZED_RECORD, recordOffset,
          "record length " + length + " exceeds the " + TcapFormat.MAX_PAYLOAD + "-byte maximum");
    }
    offset = recordOffset + TcapFormat.HEADER_BYTES + length;
    lastMicros = micros;
    return new Header(recordOffset, dir, micros, (int) length);
  }

  private static CaptureFormatException truncatedPayload(Header h, int got) {
    return new CaptureFormatException(CaptureFormatException.Reason.TRUNCATED, h.offset(),
        "truncated: the file ends inside a record payload (" + got + " of " + h.length() + " bytes)");
  }

  @Override
  public void close() throws IOException {
    in.close();
  }

  /** Writes records to bytes (test and tooling helper). */
  static byte[] toBytes(List<CaptureRecord> records) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (TcapWriter w = TcapWriter.open(out)) {
      for (CaptureRecord r : records) {
        w.write(r);
      }
    }
    return out.toByteArray();
  }
}
