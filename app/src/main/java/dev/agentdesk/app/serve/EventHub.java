package dev.agentdesk.app.serve;

import io.javalin.websocket.WsContext;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Fans {@link ServerEvent}s out to every connected {@code /ws/events} client. */
public final class EventHub {
  private static final Logger LOG = LoggerFactory.getLogger(EventHub.class);
  private final Set<WsContext> clients = ConcurrentHashMap.newKeySet();

  void join(WsContext client) {
    clients.add(client);
  }

  void leave(WsContext client) {
    clients.remove(client);
    WsOutbox.forget(client.session);
  }

  /** Sends to every client; a client whose socket fails is dropped, the others still get it. */
  public void publish(ServerEvent event) {
    String json = Json.write(event);
    for (WsContext c : clients) {
      sendTo(c, json);
    }
  }

  static void sendTo(WsContext client, String json) {
    try {
      WsOutbox.send(client.session, json);
    } catch (RuntimeException e) {
      LOG.debug("dropping a websocket message to {}: {}", client.sessionId(), e.toString());
    }
  }

  int clientCount() {
    return clients.size();
  }
}
