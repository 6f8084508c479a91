package dev.agentdesk.aci.runtime.x11;

import dev.agentdesk.aci.runtime.AciRuntimeException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The owner of one X connection's use from several threads (session workers, screencast ticks,
 * transport threads answering queries). Every Xlib call on the connection runs inside
 * {@link #call}/{@link #run}: they are serialised, so a round trip and the per-display error
 * bookkeeping of {@link X11Connection} never interleave with another thread's requests, and they
 * are refused once the connection is closed, so no thread can reach a freed {@code Display}.
 * {@link #close} frees the connection exactly once, and only while no call is running.
 */
final class DisplayGuard {
  private final String display;
  private final ReentrantLock lock = new ReentrantLock();
  /** Set before close waits for the lock: long calls (type_text) stop between keys when they see it. */
  private volatile boolean closing;
  /** Guarded by {@link #lock}. */
  private boolean closed;

  DisplayGuard(String display) {
    this.display = display;
  }

  <T> T call(Supplier<T> body) {
    lock.lock();
    try {
      if (closed) {
        throw AciRuntimeException.environment("X11 display " + display + " is closed (the runtime is stopping)");
      }
      return body.get();
    } finally {
      lock.unlock();
    }
  }

  void run(Runnable body) {
    call(() -> {
      body.run();
      return null;
    });
  }

  /** Whether a close has begun; a call that runs many steps checks it between steps. */
  boolean closing() {
    return closing;
  }

  /**
   * Runs {@code release} under the lock once the running call (if any) has returned, then refuses
   * every later call. A call that does not return within {@code waitMs} keeps the connection open:
   * freeing it under that call would crash the process, leaking it costs nothing at exit.
   *
   * @return true when the connection was released now or before, false when the wait ran out
   */
  boolean close(long waitMs, Runnable release) {
    closing = true;
    boolean locked;
    try {
      locked = lock.tryLock(waitMs, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      locked = lock.tryLock();
    }
    if (!locked) {
      return false;
    }
    try {
      if (!closed) {
        try {
          release.run();
        } finally {
          closed = true;
        }
      }
      return true;
    } finally {
      lock.unlock();
    }
  }
}
