package dev.agentdesk.aci.runtime.session;

import dev.agentdesk.aci.wire.AciMessage;

/** Where a session's messages go: one connection. Implementations serialise concurrent sends. */
public interface Outbound {
  /** Sends one message; a closed connection drops it silently. */
  void send(AciMessage message);

  /** Closes the connection (after everything sent so far). */
  void close();
}
