package dev.agentdesk.aci.client;

import dev.agentdesk.aci.AciClientException;
import dev.agentdesk.aci.AciClientException.Reason;
import dev.agentdesk.aci.wire.ExecExitMsg;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A running streamed exec: {@link #next} yields its output chunks in order and then its
 * {@link ExecEvent.Exit}; after the exit there are no more events.
 */
public final class ExecStream {
  private final String callId;
  private final LinkedBlockingQueue<Object> events = new LinkedBlockingQueue<>();
  private final Duration defaultTimeout;
  private volatile boolean finished;

  ExecStream(String callId, Duration defaultTimeout) {
    this.callId = callId;
    this.defaultTimeout = defaultTimeout;
  }

  /** The exec action's call id ({@code cause} of every event). */
  public String callId() {
    return callId;
  }

  void deliver(ExecEvent event) {
    events.add(event);
  }

  void fail(AciClientException error) {
    events.add(error);
  }

  /** Whether the exit has been taken from the stream. */
  public boolean finished() {
    return finished;
  }

  /** The next event, waiting up to the client's call timeout. */
  public ExecEvent next() {
    return next(defaultTimeout);
  }

  /**
   * The next event, waiting up to {@code timeout}. Throws {@link AciClientException}
   * ({@code TIMEOUT}, or {@code CLOSED} when the session ends first), and
   * {@link IllegalStateException} once the exit was taken.
   */
  public ExecEvent next(Duration timeout) {
    if (finished) {
      throw new IllegalStateException("exec " + callId + " already exited");
    }
    Object e;
    try {
      e = events.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
      throw new AciClientException(Reason.CLOSED, "interrupted waiting for exec " + callId, ie);
    }
    if (e == null) {
      throw new AciClientException(Reason.TIMEOUT, "no exec event for " + callId + " within " + timeout);
    }
    if (e instanceof AciClientException err) {
      finished = true;
      throw err;
    }
    ExecEvent event = (ExecEvent) e;
    if (event instanceof ExecEvent.Exit) {
      finished = true;
    }
    return event;
  }

  /** Hands every chunk to {@code onChunk} and returns the exit; {@code timeout} bounds each wait. */
  public ExecExitMsg drain(Consumer<ExecEvent.Chunk> onChunk, Duration timeout) {
    while (true) {
      ExecEvent e = next(timeout);
      if (e instanceof ExecEvent.Exit exit) {
        return exit.exit();
      }
      onChunk.accept((ExecEvent.Chunk) e);
    }
  }
}
