package dev.agentdesk.aci.runtime.screencast;

import dev.agentdesk.aci.runtime.AciRuntimeException;
import dev.agentdesk.aci.wire.Action;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One connection's screencasts. {@code start_screencast} opens a stream whose id is the action's
 * call_id; up to {@value #MAX_STREAMS} run at once on one connection (e.g. different scopes), and
 * {@code stop_screencast} ends them all. Captures run on one scheduler thread per connection and
 * sends on one sender thread, both created with the first stream and ended with the connection.
 * Each stream keeps at most one frame in flight (handed to the transport, not yet written) and
 * one parked, so a client that stops reading costs the runtime at most two frames per stream.
 */
public final class Screencasts implements AutoCloseable {
  /** Concurrent streams per connection; a start beyond it is refused, never queued. */
  public static final int MAX_STREAMS = 4;

  private final FrameSource source;
  private final FrameSink deliver;
  private final int longEdgeCap;
  private final StreamRegistry registry;
  private final Map<String, Running> streams = new LinkedHashMap<>();
  private ScheduledExecutorService ticks;
  private ExecutorService sender;
  private boolean closed;

  private record Running(Stream stream, ScheduledFuture<?> schedule) {}

  /**
   * @param deliver the connection's droppable outbound path (it serialises its own sends)
   * @param longEdgeCap the runtime's largest long edge, also the default
   * @param registry the runtime's memory of ended streams, for resume_stream
   */
  public Screencasts(FrameSource source, FrameSink deliver, int longEdgeCap, StreamRegistry registry) {
    this.registry = registry;
    this.source = source;
    this.deliver = deliver;
    this.longEdgeCap = longEdgeCap;
  }

  /**
   * Opens a stream: {@code acknowledge} runs (and so the ack is sent) before the first frame can be.
   * With {@code resume_stream} naming a stream the runtime still remembers (ended on any connection
   * within the TTL, or running on this one), the stream keeps that id and continues its seq, starting
   * with a keyframe; otherwise a new stream starts with the call_id as id and seq 0.
   *
   * @throws AciRuntimeException LIMIT when {@value #MAX_STREAMS} streams already run
   */
  public void start(String callId, Action a, Runnable acknowledge) {
    StreamSettings settings = StreamSettings.of(a, longEdgeCap);
    Stream stream;
    synchronized (this) {
      if (closed) {
        return;
      }
      String id = callId;
      long firstSeq = 0;
      if (a.resumeStream() != null) {
        Running live = streams.remove(a.resumeStream());
        if (live != null) {
          end(live);
          id = a.resumeStream();
          firstSeq = live.stream().nextSeq();
        } else {
          java.util.OptionalLong parked = registry.claim(a.resumeStream());
          if (parked.isPresent()) {
            id = a.resumeStream();
            firstSeq = parked.getAsLong();
          }
        }
      }
      Running same = streams.remove(id);
      if (same != null) {
        end(same); // the same id again: the new request replaces the old stream
      }
      if (streams.size() >= MAX_STREAMS) {
        throw new AciRuntimeException(AciRuntimeException.Reason.LIMIT,
            "max concurrent screencasts reached (" + MAX_STREAMS + ")");
      }
      if (ticks == null) {
        ticks = Executors.newSingleThreadScheduledExecutor(daemon("aci-screencast"));
        sender = Executors.newSingleThreadExecutor(daemon("aci-screencast-send"));
      }
      stream = new Stream(id, firstSeq, settings, source, deliver, sender);
      acknowledge.run();
      ScheduledFuture<?> f = ticks.scheduleAtFixedRate(stream::tick, 0, settings.periodMicros(),
          TimeUnit.MICROSECONDS);
      streams.put(id, new Running(stream, f));
    }
  }

  /**
   * Ends every stream of the connection, remembering each for a later resume; no frame of theirs
   * is sent after this returns.
   */
  public void stopAll() {
    List<Running> all;
    synchronized (this) {
      all = new ArrayList<>(streams.values());
      streams.clear();
    }
    for (Running r : all) {
      end(r);
      registry.park(r.stream().id(), r.stream().nextSeq());
    }
  }

  /** The number of streams running now. */
  public synchronized int running() {
    return streams.size();
  }

  private static void end(Running r) {
    r.schedule().cancel(false);
    r.stream().stop();
  }

  @Override
  public void close() {
    stopAll();
    synchronized (this) {
      closed = true;
      if (ticks != null) {
        ticks.shutdownNow();
        sender.shutdownNow();
      }
    }
  }

  /**
   * After {@link #close}: waits until the capture and sender threads have ended (a tick in
   * progress finishes its capture and encode first), or until {@code deadlineNanos}.
   */
  public boolean awaitStopped(long deadlineNanos) throws InterruptedException {
    ScheduledExecutorService t;
    ExecutorService s;
    synchronized (this) {
      t = ticks;
      s = sender;
    }
    if (t == null) {
      return true;
    }
    boolean ticksDone = t.awaitTermination(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
    return s.awaitTermination(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS) && ticksDone;
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
