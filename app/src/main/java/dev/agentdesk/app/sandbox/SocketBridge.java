package dev.agentdesk.app.sandbox;

import java.io.IOException;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Forwards every connection accepted on one socket to a new connection to another, bytes both
 * ways, until either side closes. The sandbox's only door is two of these: inside, a unix socket
 * in the shared door folder to the runtime's loopback port; outside, a host loopback port to that
 * unix socket. The bytes are the WebSocket's own, so the runtime still checks the token and
 * Origin itself. Two threads per connection: a handful of ACI clients, not a web server.
 */
final class SocketBridge implements AutoCloseable {
  private final ServerSocketChannel listener;
  private final Supplier<SocketAddress> target;
  private final Set<SocketChannel> open = ConcurrentHashMap.newKeySet();
  private final Thread acceptor;
  private volatile boolean closed;

  private SocketBridge(ServerSocketChannel listener, Supplier<SocketAddress> target, String name) {
    this.listener = listener;
    this.target = target;
    this.acceptor = new Thread(this::acceptLoop, name);
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** Listens on {@code from} (a unix socket path or a TCP address) and forwards to {@code to}. */
  static SocketBridge start(SocketAddress from, Supplier<SocketAddress> to, String name) throws IOException {
    ServerSocketChannel s = from instanceof UnixDomainSocketAddress
        ? ServerSocketChannel.open(StandardProtocolFamily.UNIX)
        : ServerSocketChannel.open();
    try {
      s.bind(from);
    } catch (IOException e) {
      s.close();
      throw e;
    }
    return new SocketBridge(s, to, name);
  }

  SocketAddress localAddress() throws IOException {
    return listener.getLocalAddress();
  }

  private void acceptLoop() {
    while (!closed) {
      SocketChannel client;
      try {
        client = listener.accept();
      } catch (IOException e) {
        return; // closed
      }
      SocketChannel upstream;
      try {
        SocketAddress to = target.get();
        upstream = SocketChannel.open(to);
      } catch (IOException | RuntimeException e) {
        quietly(client);
        continue;
      }
      open.add(client);
      open.add(upstream);
      java.util.concurrent.atomic.AtomicInteger running = new java.util.concurrent.atomic.AtomicInteger(2);
      pump(client, upstream, running);
      pump(upstream, client, running);
    }
  }

  /** Copies {@code from} to {@code to}; the second of the pair's two pumps to end closes both. */
  private void pump(SocketChannel from, SocketChannel to, java.util.concurrent.atomic.AtomicInteger running) {
    Thread t = new Thread(() -> {
      ByteBuffer buf = ByteBuffer.allocateDirect(64 * 1024);
      try {
        while (from.read(buf) >= 0) {
          buf.flip();
          while (buf.hasRemaining()) {
            to.write(buf);
          }
          buf.clear();
        }
        to.shutdownOutput(); // half-close: the peer sees the end, the other direction goes on
      } catch (IOException e) {
        running.set(1); // a broken connection ends both directions
        quietly(from);
        quietly(to);
      }
      if (running.decrementAndGet() <= 0) {
        quietly(from);
        quietly(to);
        open.remove(from);
        open.remove(to);
      }
    }, "sandbox-bridge-pump");
    t.setDaemon(true);
    t.start();
  }

  private static void quietly(SocketChannel c) {
    try {
      c.close();
    } catch (IOException e) {
      // closing anyway
    }
  }

  @Override
  public void close() {
    closed = true;
    try {
      listener.close();
    } catch (IOException e) {
      // closing anyway
    }
    open.forEach(SocketBridge::quietly);
    open.clear();
  }
}
