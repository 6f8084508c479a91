package dev.agentdesk.app.runtime;

import dev.agentdesk.aci.recording.Direction;
import dev.agentdesk.aci.recording.RecordingException;
import dev.agentdesk.aci.recording.RecordingWriter;
import dev.agentdesk.aci.runtime.WireTap;
import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code agentdesk runtime --record DIR}: the runtime's wire tap writing into a recording. A write
 * that fails (a full disk) stops the recording with one line on stderr; the runtime goes on.
 */
public final class RecordingTap implements WireTap {
  private final RecordingWriter writer;
  private final PrintStream err;
  private final AtomicBoolean failed = new AtomicBoolean();

  public RecordingTap(RecordingWriter writer, PrintStream err) {
    this.writer = writer;
    this.err = err;
  }

  private void guard(Runnable write) {
    if (failed.get()) {
      return;
    }
    try {
      write.run();
    } catch (RecordingException e) {
      if (failed.compareAndSet(false, true)) {
        err.println("agentdesk runtime: recording stopped: " + e.getMessage());
      }
    }
  }

  @Override
  public int opened() {
    int[] conn = {0};
    guard(() -> conn[0] = writer.connectionOpened());
    return conn[0];
  }

  @Override
  public void received(int conn, String text) {
    guard(() -> writer.text(conn, Direction.CLIENT_TO_RUNTIME, text));
  }

  @Override
  public void receivedBinary(int conn, byte[] message) {
    guard(() -> writer.binary(conn, Direction.CLIENT_TO_RUNTIME, message));
  }

  @Override
  public void sent(int conn, String text) {
    guard(() -> writer.text(conn, Direction.RUNTIME_TO_CLIENT, text));
  }

  @Override
  public void sentBinary(int conn, byte[] message) {
    guard(() -> writer.binary(conn, Direction.RUNTIME_TO_CLIENT, message));
  }

  @Override
  public void closed(int conn) {
    guard(() -> writer.connectionClosed(conn));
  }
}
