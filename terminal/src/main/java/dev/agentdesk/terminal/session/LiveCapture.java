package dev.agentdesk.terminal.session;

import dev.agentdesk.terminal.tcap.Direction;
import dev.agentdesk.terminal.tcap.TcapWriter;
import java.io.IOException;
import java.nio.file.Path;

/**
 * A framed .tcap capture of a live session: both directions, the original chunk boundaries, and
 * timestamps taken from the same session-clock value the session core processed each chunk at.
 * That is what makes a replay (same clock steps, same chunks) reach the same decisions. The
 * session clock counts milliseconds, so timestamps are whole milliseconds written as microseconds.
 *
 * <p>Bytes the session itself types into the PTY (the session-id reset) are not user input and are
 * not recorded. Resizes are not part of the format. Called only under the session lock.
 */
final class LiveCapture implements AutoCloseable {
  private final Path file;
  private final TcapWriter writer;
  private final long startMs;

  private LiveCapture(Path file, TcapWriter writer, long startMs) {
    this.file = file;
    this.writer = writer;
    this.startMs = startMs;
  }

  static LiveCapture create(Path file, long startMs) {
    try {
      return new LiveCapture(file, TcapWriter.create(file), startMs);
    } catch (IOException e) {
      throw new SessionException(SessionException.Reason.IO, "cannot create capture " + file + ": " + e.getMessage(), e);
    }
  }

  Path file() {
    return file;
  }

  long startMs() {
    return startMs;
  }

  void output(long nowMs, byte[] chunk) throws IOException {
    write(Direction.OUTPUT, nowMs, chunk);
  }

  void input(long nowMs, byte[] bytes) throws IOException {
    write(Direction.INPUT, nowMs, bytes);
  }

  private void write(Direction d, long nowMs, byte[] bytes) throws IOException {
    writer.write(d, Math.max(0, nowMs - startMs) * 1000, bytes, 0, bytes.length);
    writer.flush();
  }

  @Override
  public void close() throws IOException {
    writer.close();
  }
}
