package dev.agentdesk.app.serve.sandboxes;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.function.Consumer;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;

/**
 * What one live-view socket still has to send: a short queue of text messages (state changes,
 * act replies, errors) and <em>one</em> screen patch slot. Jetty takes one write at a time; while a
 * write is in flight every new frame is merged into the slot (tiles at the same place replace each
 * other, a keyframe replaces everything), so a slow viewer gets fewer, fuller frames and costs at
 * most one keyframe plus one tile per grid cell, however long it stalls. A viewer that falls
 * {@link #MAX_TEXTS} text messages behind is closed: it is not reading at all.
 */
final class ViewerOutbox {
  static final int MAX_TEXTS = 256;

  /** Where the bytes go; {@link #jetty} in the server, a recorder in tests. */
  interface Transport {
    void sendText(String text, Runnable done, Consumer<Throwable> failed);

    void sendBinary(byte[] bytes, Runnable done, Consumer<Throwable> failed);

    void close(int code, String reason);
  }

  static Transport jetty(Session session) {
    return new Transport() {
      @Override
      public void sendText(String text, Runnable done, Consumer<Throwable> failed) {
        session.sendText(text, Callback.from(done, failed));
      }

      @Override
      public void sendBinary(byte[] bytes, Runnable done, Consumer<Throwable> failed) {
        session.sendBinary(ByteBuffer.wrap(bytes), Callback.from(done, failed));
      }

      @Override
      public void close(int code, String reason) {
        session.close(code, reason, Callback.NOOP);
      }
    };
  }

  private final Transport transport;
  /** This viewer asked for exact frames only ({@code ?lossless=1}): large changes reach it as png. */
  private final boolean lossless;
  // Guarded by this: the queue, the slot, the flags and the counters.
  private final ArrayDeque<String> texts = new ArrayDeque<>();
  private ScreenPatch pending;
  private boolean writing;
  private boolean closed;
  private long patchesSent;
  private long patchesMerged;
  private long bytesSent;

  ViewerOutbox(Transport transport) {
    this(transport, false);
  }

  ViewerOutbox(Transport transport, boolean lossless) {
    this.transport = transport;
    this.lossless = lossless;
  }

  boolean lossless() {
    return lossless;
  }

  void text(String json) {
    synchronized (this) {
      if (closed) {
        return;
      }
      if (texts.size() >= MAX_TEXTS) {
        closed = true;
        texts.clear();
        pending = null;
        transport.close(1008, "too slow: " + MAX_TEXTS + " messages unread");
        return;
      }
      texts.add(json);
      if (writing) {
        return;
      }
      writing = true;
    }
    pump();
  }

  /** Queues a frame; the patch is copied, the caller may go on changing it. */
  void frame(ScreenPatch patch) {
    synchronized (this) {
      if (closed) {
        return;
      }
      if (pending == null) {
        pending = patch.copy();
      } else {
        pending.merge(patch);
        patchesMerged++;
      }
      if (writing) {
        return;
      }
      writing = true;
    }
    pump();
  }

  /** Stops sending; what is queued is dropped. */
  void close() {
    synchronized (this) {
      closed = true;
      texts.clear();
      pending = null;
    }
  }

  synchronized long patchesSent() {
    return patchesSent;
  }

  /** Frames folded into a waiting one because the previous write had not finished. */
  synchronized long patchesMerged() {
    return patchesMerged;
  }

  synchronized long bytesSent() {
    return bytesSent;
  }

  /** Images waiting in the slot: a keyframe counts one, each tile one. */
  synchronized int pendingTiles() {
    return pending == null ? 0 : pending.tileCount() + (pending.hasKeyframe() ? 1 : 0);
  }

  /**
   * Writes until nothing is left. A loop, not recursion: a write that completes at once (inside
   * the send call) hands the next message back to this loop instead of calling it again.
   */
  private void pump() {
    while (true) {
      Object next;
      synchronized (this) {
        if (closed) {
          writing = false;
          return;
        }
        String t = texts.poll();
        if (t != null) {
          next = t;
        } else if (pending != null) {
          byte[] b = pending.encode();
          pending = null;
          patchesSent++;
          bytesSent += b.length;
          next = b;
        } else {
          writing = false;
          return;
        }
      }
      boolean[] state = new boolean[2]; // [0]: completed inline, [1]: send call returned
      Runnable done = () -> {
        synchronized (state) {
          if (!state[1]) {
            state[0] = true;
            return;
          }
        }
        pump();
      };
      Consumer<Throwable> failed = t -> {
        synchronized (this) {
          closed = true;
          writing = false;
          texts.clear();
          pending = null;
        }
      };
      try {
        if (next instanceof byte[] b) {
          transport.sendBinary(b, done, failed);
        } else {
          transport.sendText((String) next, done, failed);
        }
      } catch (RuntimeException e) {
        failed.accept(e);
        return;
      }
      synchronized (state) {
        state[1] = true;
        if (!state[0]) {
          return; // the completion continues the loop
        }
      }
    }
  }
}
