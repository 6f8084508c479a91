package dev.agentdesk.app.serve;

import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One queue of outgoing text messages per WebSocket session. Jetty allows one write in flight per
 * session and reports a second one only to its callback, so concurrent senders (the frame timer,
 * a PTY reader, the event hub) would silently lose messages; here each message is written when the
 * previous one has completed. A client that falls {@link #MAX_QUEUED} messages behind is closed
 * rather than buffered without bound; its page reconnects and starts from a full frame.
 */
final class WsOutbox {
  private static final Logger LOG = LoggerFactory.getLogger(WsOutbox.class);
  static final int MAX_QUEUED = 2_000;
  private static final Map<Session, WsOutbox> BOXES = new ConcurrentHashMap<>();

  private final Session session;
  private final ArrayDeque<String> queue = new ArrayDeque<>();
  private boolean sending;

  private WsOutbox(Session session) {
    this.session = session;
  }

  static void send(Session session, String text) {
    if (!session.isOpen()) {
      BOXES.remove(session);
      return;
    }
    BOXES.computeIfAbsent(session, WsOutbox::new).enqueue(text);
  }

  /** Drops the queue of a session that closed. */
  static void forget(Session session) {
    BOXES.remove(session);
  }

  private void enqueue(String text) {
    synchronized (this) {
      if (queue.size() >= MAX_QUEUED) {
        LOG.warn("a websocket client fell {} messages behind; closing it", MAX_QUEUED);
        queue.clear();
        BOXES.remove(session);
        session.close(1008, "too slow", Callback.NOOP);
        return;
      }
      queue.add(text);
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
      String msg;
      synchronized (this) {
        msg = queue.poll();
        if (msg == null) {
          sending = false;
          return;
        }
      }
      boolean[] doneInline = {false};
      boolean[] inThisCall = {true};
      try {
        session.sendText(msg, Callback.from(() -> {
          synchronized (doneInline) {
            if (inThisCall[0]) {
              doneInline[0] = true;
              return;
            }
          }
          next();
        }, this::failed));
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
      sending = false;
    }
    BOXES.remove(session);
  }
}
