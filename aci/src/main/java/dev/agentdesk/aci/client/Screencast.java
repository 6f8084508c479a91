package dev.agentdesk.aci.client;

import dev.agentdesk.aci.AciClientException;
import dev.agentdesk.aci.wire.ObservationMsg;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A screencast subscription: the runtime's stream frames (keyframes and delta tiles, text or
 * binary) composited into full frames. Read them with {@link #next} or get each one pushed to the
 * listener given at subscription; both see every frame. {@link StreamCompositor.Frame#missed()}
 * says how many seqs the runtime dropped (a slow connection) or the resume skipped before a frame.
 *
 * <p>The stream id is the start call's id, or — when {@code resume_stream} named a stream the
 * runtime still remembered — that stream's id with its seq continued; {@link #resumed()} tells
 * which once the first frame arrived. Frames queue here up to {@value #QUEUE} deep; when the reader
 * falls behind the oldest are discarded and counted in {@link #discarded()}.
 */
public final class Screencast implements AutoCloseable {
  /** Frames kept for {@link #next} before the oldest are discarded. */
  static final int QUEUE = 16;

  private final AciClient client;
  private final String callId;
  private final String resumeStream;
  private final StreamCompositor compositor = new StreamCompositor();
  private final LinkedBlockingDeque<Object> frames = new LinkedBlockingDeque<>();
  private final Consumer<StreamCompositor.Frame> listener;
  private final Consumer<ObservationMsg> tap = this::accept;
  private volatile String streamId;
  private volatile long missed;
  private volatile long discarded;
  private volatile boolean closed;

  Screencast(AciClient client, String callId, String resumeStream, Consumer<StreamCompositor.Frame> listener) {
    this.client = client;
    this.callId = callId;
    this.resumeStream = resumeStream;
    this.listener = listener;
  }

  Consumer<ObservationMsg> tap() {
    return tap;
  }

  /** Runs on the client's event thread, one observation at a time. */
  private void accept(ObservationMsg o) {
    if (closed || o.stream() == null) {
      return;
    }
    String id = streamId;
    if (id == null ? !(o.stream().equals(callId) || o.stream().equals(resumeStream)) : !id.equals(o.stream())) {
      return;
    }
    StreamCompositor.Frame f;
    try {
      f = compositor.apply(o);
    } catch (AciClientException e) {
      offer(e);
      return;
    }
    streamId = f.stream();
    missed += f.missed();
    offer(f);
    if (listener != null) {
      listener.accept(f);
    }
  }

  private void offer(Object item) {
    frames.addLast(item);
    while (frames.size() > QUEUE) {
      if (frames.pollFirst() != null) {
        discarded++;
      }
    }
  }

  /**
   * The next full frame, waiting up to {@code timeout}; null when none came.
   *
   * @throws AciClientException PROTOCOL_VIOLATION when the runtime sent a frame that does not compose
   */
  public StreamCompositor.Frame next(Duration timeout) {
    Object item;
    try {
      item = frames.pollFirst(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AciClientException(AciClientException.Reason.CLOSED, "interrupted waiting for a frame", e);
    }
    if (item instanceof AciClientException e) {
      throw e;
    }
    return (StreamCompositor.Frame) item;
  }

  /** The start call's id: the stream id unless a resume continued another stream. */
  public String callId() {
    return callId;
  }

  /** The stream id, known once the first frame arrived (null before). */
  public String streamId() {
    return streamId;
  }

  /** Whether the runtime continued the stream named by {@code resume_stream} (known after the first frame). */
  public boolean resumed() {
    return resumeStream != null && resumeStream.equals(streamId);
  }

  /** Seqs the runtime skipped across all frames so far (dropped for a slow connection). */
  public long missed() {
    return missed;
  }

  /** Frames this subscription threw away because {@link #next} was not called fast enough. */
  public long discarded() {
    return discarded;
  }

  /**
   * Stops listening and sends {@code stop_screencast}, which ends <em>every</em> stream of this
   * connection (the protocol has no per-stream stop). Idempotent; on a closed session it only
   * stops listening.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    client.unsubscribe(tap);
    if (client.isOpen()) {
      client.stopScreencast();
    }
  }
}
