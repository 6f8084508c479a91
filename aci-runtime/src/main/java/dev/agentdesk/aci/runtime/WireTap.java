package dev.agentdesk.aci.runtime;

/**
 * Sees every message of every connection as it travels (for a recorder): what a client sent, before
 * the session handles it, and what the runtime sends, as it is queued for the socket. Called on the
 * connection's threads; an implementation must be thread-safe and quick, and must not throw.
 */
public interface WireTap {
  /** Taps nothing. */
  WireTap NONE = new WireTap() {
    @Override
    public int opened() {
      return 0;
    }

    @Override
    public void received(int conn, String text) {}

    @Override
    public void receivedBinary(int conn, byte[] message) {}

    @Override
    public void sent(int conn, String text) {}

    @Override
    public void sentBinary(int conn, byte[] message) {}

    @Override
    public void closed(int conn) {}
  };

  /** A connection was accepted; returns the number its other calls carry. */
  int opened();

  void received(int conn, String text);

  void receivedBinary(int conn, byte[] message);

  void sent(int conn, String text);

  void sentBinary(int conn, byte[] message);

  void closed(int conn);
}
