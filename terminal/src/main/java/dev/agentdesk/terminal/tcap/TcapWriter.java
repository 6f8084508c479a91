package dev.agentdesk.terminal.tcap;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.Flushable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes a framed .tcap capture: the magic on open, then one record per {@link #write} call. */
public final class TcapWriter implements Closeable, Flushable {
  private final OutputStream out;
  private final byte[] header = new byte[TcapFormat.HEADER_BYTES];
  private long lastMicros;

  private TcapWriter(OutputStream out) throws IOException {
    this.out = out instanceof BufferedOutputStream ? out : new BufferedOutputStream(out);
    this.out.write(TcapFormat.MAGIC);
  }

  public static TcapWriter open(OutputStream out) throws IOException {
    return new TcapWriter(out);
  }

  public static TcapWriter create(Path file) throws IOException {
    return new TcapWriter(Files.newOutputStream(file));
  }

  /** Appends one record; timestamps must not decrease, as readers rely on it. */
  public void write(Direction direction, long elapsedMicros, byte[] payload, int off, int len) throws IOException {
    if (elapsedMicros < lastMicros) {
      throw new IllegalArgumentException("elapsed time " + elapsedMicros + " µs is before the previous record's "
          + lastMicros + " µs");
    }
    if (len > TcapFormat.MAX_PAYLOAD) {
      throw new IllegalArgumentException("record of " + len + " bytes exceeds the " + TcapFormat.MAX_PAYLOAD + "-byte maximum");
    }
    header[0] = (byte) direction.wire();
    long m = elapsedMicros;
    for (int i = 1; i <= 8; i++) {
      header[i] = (byte) m;
      m >>>= 8;
    }
    int l = len;
    for (int i = 9; i <= 12; i++) {
      header[i] = (byte) l;
      l >>>= 8;
    }
    out.write(header);
    out.write(payload, off, len);
    lastMicros = elapsedMicros;
  }

  public void write(CaptureRecord record) throws IOException {
    write(record.direction(), record.elapsedMicros(), record.payload(), 0, record.payload().length);
  }

  @Override
  public void flush() throws IOException {
    out.flush();
  }

  @Override
  public void close() throws IOException {
    out.close();
  }
}
