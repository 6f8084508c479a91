package dev.agentdesk.aci.runtime.session;

import dev.agentdesk.aci.wire.AciMessage;
import dev.agentdesk.aci.wire.BinaryFrame;
import dev.agentdesk.aci.wire.BinaryFrames;
import dev.agentdesk.aci.wire.ExecOutputMsg;
import dev.agentdesk.aci.wire.ObservationMsg;
import dev.agentdesk.aci.wire.WireCodec;
import dev.agentdesk.aci.wire.WireContract;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A session's outbound path: picks the wire form of each message and counts the bytes the
 * transport has not written yet.
 *
 * <p>On a session that negotiated binary frames, image-bearing observations (screenshots, stream
 * frames, observe-after-act) go as one binary message per {@code BinaryFrameHeader} and exec
 * output chunks per {@code BinaryExecOutputHeader}; {@code not_modified} and everything else stay
 * JSON text. Droppable frames are refused while more than {@link #FRAME_QUEUE_CAP_BYTES} wait
 * unwritten (a client that stops reading), so what the connection holds stays bounded; messages
 * that must arrive are never refused.
 */
final class Framing implements Outbound {
  /** Above this many unwritten bytes on the connection, stream frames are refused (dropped). */
  static final long FRAME_QUEUE_CAP_BYTES = 2L << 20;

  private final Transport transport;
  private final boolean validate;
  private final AtomicLong queued = new AtomicLong();
  private volatile boolean binary;

  Framing(Transport transport, boolean validate) {
    this.transport = transport;
    this.validate = validate;
  }

  /** Switches image-bearing observations and exec output to binary frames (after hello). */
  void binary(boolean on) {
    binary = on;
  }

  boolean binary() {
    return binary;
  }

  /** Bytes handed to the transport and not yet written to the socket. */
  long queuedBytes() {
    return queued.get();
  }

  @Override
  public void send(AciMessage message) {
    write(message, () -> { });
  }

  @Override
  public boolean offer(AciMessage message, Runnable written) {
    if (queued.get() > FRAME_QUEUE_CAP_BYTES) {
      return false;
    }
    write(message, written);
    return true;
  }

  private void write(AciMessage message, Runnable written) {
    if (validate) {
      WireContract.bundled().check(message);
    }
    BinaryFrame frame = binary ? binaryForm(message) : null;
    if (frame == null) {
      String text = WireCodec.encode(message);
      long size = text.length();
      queued.addAndGet(size);
      transport.text(text, () -> done(size, written));
      return;
    }
    if (validate) {
      String def = frame instanceof BinaryFrame.Media ? "#/$defs/BinaryFrameHeader" : "#/$defs/BinaryExecOutputHeader";
      WireContract.bundled().check(def, WireCodec.toJson(frame instanceof BinaryFrame.Media m ? m.header()
          : ((BinaryFrame.ExecOutput) frame).header()));
    }
    byte[] bytes = BinaryFrames.encode(frame);
    long size = bytes.length;
    queued.addAndGet(size);
    transport.binary(bytes, () -> done(size, written));
  }

  private void done(long size, Runnable written) {
    queued.addAndGet(-size);
    written.run();
  }

  /** The binary form of a message that has one on a binary session, else null. */
  private static BinaryFrame binaryForm(AciMessage message) {
    if (message instanceof ObservationMsg o && !o.isNotModified() && (o.image() != null || o.tiles() != null)
        && o.tree() == null && o.elements() == null) {
      return BinaryFrames.fromObservation(o);
    }
    if (message instanceof ExecOutputMsg chunk) {
      return BinaryFrames.fromExecOutput(chunk);
    }
    return null;
  }

  @Override
  public void close() {
    transport.close();
  }
}
