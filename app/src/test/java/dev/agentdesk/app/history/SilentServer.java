package dev.agentdesk.app.history;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** A loopback server that accepts every connection and never answers: only a client's deadline ends its wait. */
final class SilentServer implements AutoCloseable {
  private final ServerSocket socket;

  SilentServer() throws IOException {
    socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(() -> {
      try {
        while (true) {
          socket.accept();
        }
      } catch (IOException closed) {
        // closed: the test is over
      }
    }, "silent-server");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** {@code http://127.0.0.1:PORT/}. */
  String url() {
    return "http://127.0.0.1:" + socket.getLocalPort() + "/";
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
