package dev.agentdesk.aci.runtime.session;

/**
 * One connection's raw sending side (a WebSocket). Sends are asynchronous: each takes a callback
 * that runs once, when the bytes have been written or the connection failed, so the session can
 * count what is still queued and stop feeding a client that does not read.
 */
public interface Transport {
  /** Queues one text message. */
  void text(String text, Runnable written);

  /** Queues one binary message. */
  void binary(byte[] message, Runnable written);

  /** Closes the connection after what was queued so far. */
  void close();
}
