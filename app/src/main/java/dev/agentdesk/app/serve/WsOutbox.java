package dev.agentdesk.app.serve;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One queue of outgoing messages (text, or binary: a terminal's raw bytes) per WebSocket session. Jetty allows one write in flight per
 * session and reports a second one only to its callback, so concurrent senders (the frame timer,
 * a PTY reader, the event hub) would silently lose messages; here each message is written when the
 * previous one has completed. A client that falls {@link #MAX_QUEUED} messages behind is closed
 * rather than buffered without bound (so is one with more than {@link #MAX_QUEUED_BYTES} of binary
 * messages waiting); its page reconnects and starts again from a repaint.
 */
final class WsOutbox {
  private static final Logger LOG = LoggerFactory.getLogger(WsOutbox.class);
  static final int MAX_QUEUED = 2_000;
  static final long MAX_QUEUED_BYTES = 16L * 1024 * 1024;
  private static final Map<Session, WsOutbox> BOXES = new ConcurrentHashMap<>();

  private final Session session;
  /** String (text) or byte[] (binary) messages, in order. */
  private final ArrayDeque<Object> queue = new ArrayDeque<>();
  private long queuedBytes;
  private boolean sending;

  private WsOutbox(Session session) {
    this.session = session;
  }

  static void send(Session session, String text) {
    enqueue(session, text);
  }

  /** Queues a binary message; the array must not change afterwards. */
  static void sendBinary(Session session, byte[] bytes) {
    enqueue(session, bytes);
  }

  private static void enqueue(Session session, Object message) {
    if (!session.isOpen()) {
      BOXES.remove(session);
      return;
    }
    BOXES.computeIfAbsent(session, WsOutbox::new).enqueue(message);
  }

  /** Drops the queue of a session that closed. */
  static void forget(Session session) {
    BOXES.remove(session);
  }

  private void enqueue(Object message) {
    synchronized (this) {
      int size = message instanceof byte[] b ? b.length : 0;
      if (queue.size() >= MAX_QUEUED || queuedBytes + size > MAX_QUEUED_BYTES) {
        LOG.warn("a websocket client fell {} messages ({} bytes) behind; closing it", queue.size(), queuedBytes);
        queue.clear();
        queuedBytes = 0;
        BOXES.remove(session);
        session.close(1008, "too slow", Callback.NOOP);
        return;
      }
      queue.add(message);
      queuedBytes += size;
      if (sending) {
        return;
      }
      sending = true;
    }
    next();
  }

  private void next() {
    // A loop, not recursion: a write that completes at once hands the next message back here.
    while (true) {
      Object msg;
      synchronized (this) {
        msg = queue.poll();
        if (msg == null) {
          sending = false;
          return;
        }
        if (msg instanceof byte[] b) {
          queuedBytes -= b.length;
        }
      }
      boolean[] doneInline = {false};
      boolean[] inThisCall = {true};
      try {
        Callback done = Callback.from(() -> {
          synchronized (doneInline) {
            if (inThisCall[0]) {
              doneInline[0] = true;
              return;
            }
          }
          next();
        }, this::failed);
        if (msg instanceof byte[] b) {
          session.sendBinary(ByteBuffer.wrap(b), done);
        } else {
          session.sendText((String) msg, done);
        }
      } catch (RuntimeException e) {
        failed(e);
        return;
      }
      synchronized (doneInline) {
        inThisCall[0] = false;
        if (!doneInline[0]) {
          return; // the callback will continue with the next message
        }
      }
    }
  }

  private void failed(Throwable t) {
    LOG.debug("websocket write failed: {}", t.toString());
    synchronized (this) {
      queue.clear();
      queuedBytes = 0;
      sending = false;
    }
    BOXES.remove(session);
  }
}
