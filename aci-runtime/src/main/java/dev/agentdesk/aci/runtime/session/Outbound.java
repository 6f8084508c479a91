package dev.agentdesk.aci.runtime.session;

import dev.agentdesk.aci.wire.AciMessage;

/** Where a session's messages go: one connection. Implementations serialise concurrent sends. */
public interface Outbound {
  /** Sends one message that must arrive (ack, result, observation, exec event); a closed connection drops it. */
  void send(AciMessage message);

  /**
   * Offers a droppable message (a screencast frame). It is refused — nothing is sent and
   * {@code written} never runs — when the connection already holds too many unwritten bytes; once
   * accepted, {@code written} runs exactly once, when the transport has written it or given up.
   *
   * @return whether the message was accepted
   */
  default boolean offer(AciMessage message, Runnable written) {
    send(message);
    written.run();
    return true;
  }

  /** Closes the connection (after everything sent so far). */
  void close();
}
