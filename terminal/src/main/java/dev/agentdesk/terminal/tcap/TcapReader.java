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
 * Reads a capture: framed .tcap records, or a legacy .raw file as one output record. Records are
 * read one at a time so a long capture is never held in memory whole (except a .raw file, which is
 * one record by definition).
 */
public final class TcapReader implements Closeable {
  private final InputStream in;
  private final boolean framed;
  private long offset;
  private long lastMicros;
  private byte[] rawContent;

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
      if (rawContent != null) {
        return null;
      }
      rawContent = in.readAllBytes();
      return new CaptureRecord(Direction.OUTPUT, 0, rawContent);
    }
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
    byte[] payload = in.readNBytes((int) length);
    if (payload.length < length) {
      throw new CaptureFormatException(CaptureFormatException.Reason.TRUNCATED, recordOffset,
          "truncated: the file ends inside a record payload (" + payload.length + " of " + length + " bytes)");
    }
    offset = recordOffset + TcapFormat.HEADER_BYTES + length;
    lastMicros = micros;
    return new CaptureRecord(dir, micros, payload);
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
