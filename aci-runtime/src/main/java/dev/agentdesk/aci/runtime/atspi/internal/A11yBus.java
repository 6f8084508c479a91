package dev.agentdesk.aci.runtime.atspi.internal;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.freedesktop.dbus.DBusMatchRule;
import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.connections.impl.DBusConnectionBuilder;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.messages.DBusSignal;
import org.freedesktop.dbus.messages.Message;
import org.freedesktop.dbus.messages.MethodCall;

/**
 * A connection to one D-Bus bus used with untyped, pipelined method calls: {@link #send} writes
 * a call and returns at once, {@link #await} collects its reply. Sending a whole tree level
 * before awaiting any reply is what keeps a walk of hundreds of nodes fast.
 *
 * <p>On the accessibility bus it also records when the last AT-SPI change event arrived, which
 * is what {@code settle_ms} waits on.
 */
public final class A11yBus implements AutoCloseable {
  public static final String ACCESSIBLE = "org.a11y.atspi.Accessible";
  public static final String PROPERTIES = "org.freedesktop.DBus.Properties";

  private static final Set<String> GONE_ERRORS = Set.of(
      "org.freedesktop.DBus.Error.ServiceUnknown",
      "org.freedesktop.DBus.Error.UnknownObject",
      "org.freedesktop.DBus.Error.NameHasNoOwner",
      "org.freedesktop.DBus.Error.Disconnected");

  private final DBusConnection connection;
  private final String address;
  private final AtomicLong lastEventNanos = new AtomicLong(System.nanoTime());
  private final AtomicLong eventCount = new AtomicLong();

  private A11yBus(DBusConnection connection, String address) {
    this.connection = connection;
    this.address = address;
  }

  /** How long connecting may take; dbus-java retries a refused connect until then. */
  static final int CONNECT_TIMEOUT_MS = 1000;

  /** Connects to {@code address} (a single {@code unix:path=} or {@code unix:abstract=} entry). */
  public static A11yBus connect(String address) throws DBusException {
    return new A11yBus(open(address), address);
  }

  static DBusConnection open(String address) throws DBusException {
    return DBusConnectionBuilder.forAddress(address).withShared(false)
        .transportConfig().withTimeout(CONNECT_TIMEOUT_MS).back().build();
  }

  /** Wraps an open connection for one-off calls (the session-bus address lookup). */
  static A11yBus wrapForLookup(DBusConnection c, String address) {
    return new A11yBus(c, address);
  }

  public String address() {
    return address;
  }

  public boolean isConnected() {
    return connection.isConnected();
  }

  /** A call on its way; {@link #await} turns it into the reply's arguments. */
  public record Pending(MethodCall call, String what, long sentNanos) {}

  public Pending send(String dest, String path, String iface, String member, String sig,
      Object... args) throws BusCallException {
    try {
      MethodCall call = connection.getMessageFactory()
          .createMethodCall(dest, path, iface, member, (byte) 0, sig, args);
      connection.sendMessage(call);
      return new Pending(call, iface.substring(iface.lastIndexOf('.') + 1) + "." + member,
          System.nanoTime());
    } catch (DBusException | RuntimeException e) {
      if (!connection.isConnected()) {
        throw new BusCallException(BusCallException.Kind.DISCONNECTED,
            "the accessibility bus connection is closed");
      }
      throw new BusCallException(BusCallException.Kind.ERROR,
          "cannot send " + member + ": " + e.getMessage());
    }
  }

  /**
   * Waits for the reply of {@code p} until {@code deadlineNanos} ({@link System#nanoTime()}
   * scale) and returns its arguments.
   */
  public Object[] await(Pending p, long deadlineNanos) throws BusCallException {
    long waitMs = Math.max(0, (deadlineNanos - System.nanoTime()) / 1_000_000);
    Message reply = p.call().getReply(Math.max(1, waitMs));
    if (reply == null) {
      if (!connection.isConnected()) {
        throw new BusCallException(BusCallException.Kind.DISCONNECTED,
            "the accessibility bus connection is closed");
      }
      long waited = Math.max(1, (deadlineNanos - p.sentNanos()) / 1_000_000);
      throw new BusCallException(BusCallException.Kind.TIMEOUT,
          "AT-SPI call timed out after " + waited + "ms (" + p.what() + ")");
    }
    if (reply instanceof org.freedesktop.dbus.messages.Error error) {
      String name = error.getName();
      String text = describeError(error);
      BusCallException.Kind kind = GONE_ERRORS.contains(name)
          ? BusCallException.Kind.GONE : BusCallException.Kind.ERROR;
      throw new BusCallException(kind, p.what() + " failed: " + text);
    }
    try {
      Object[] params = reply.getParameters();
      return params == null ? new Object[0] : params;
    } catch (DBusException e) {
      throw BusCallException.protocol(p.what() + ": " + e.getMessage());
    }
  }

  /** Sends and awaits one call with its own timeout. */
  public Object[] call(long timeoutMs, String dest, String path, String iface, String member,
      String sig, Object... args) throws BusCallException {
    Pending p = send(dest, path, iface, member, sig, args);
    return await(p, p.sentNanos() + timeoutMs * 1_000_000);
  }

  private static String describeError(org.freedesktop.dbus.messages.Error error) {
    String name = error.getName();
    try {
      Object[] params = error.getParameters();
      if (params != null && params.length > 0 && params[0] instanceof String s && !s.isBlank()) {
        return name + ": " + s;
      }
    } catch (DBusException | RuntimeException ignored) {
      // The error name alone still says what happened.
    }
    return name;
  }

  /**
   * Subscribes to AT-SPI object and window events so {@link #lastEventNanos()} moves when the UI
   * changes. Applications only emit events someone registered for, so the listener is also
   * announced to the registry; an older registry without that method is tolerated.
   */
  public void watchChangeEvents(long timeoutMs) throws BusCallException {
    try {
      for (String iface : new String[] {"org.a11y.atspi.Event.Object",
          "org.a11y.atspi.Event.Window"}) {
        connection.addGenericSigHandler(new DBusMatchRule("signal", iface, null),
            this::onSignal);
      }
    } catch (DBusException e) {
      throw new BusCallException(BusCallException.Kind.ERROR,
          "cannot subscribe to AT-SPI events: " + e.getMessage());
    }
    for (String event : new String[] {"object:", "window:"}) {
      try {
        call(timeoutMs, "org.a11y.atspi.Registry", "/org/a11y/atspi/registry",
            "org.a11y.atspi.Registry", "RegisterEvent", "sass", event, new String[0], "");
      } catch (BusCallException e) {
        if (e.kind() == BusCallException.Kind.DISCONNECTED) {
          throw e;
        }
        // Registries before at-spi2-core 2.46 take only the event name.
        call(timeoutMs, "org.a11y.atspi.Registry", "/org/a11y/atspi/registry",
            "org.a11y.atspi.Registry", "RegisterEvent", "s", event);
      }
    }
  }

  private void onSignal(DBusSignal signal) {
    lastEventNanos.set(System.nanoTime());
    eventCount.incrementAndGet();
  }

  /** {@link System#nanoTime()} of the last change event (connection time before any). */
  public long lastEventNanos() {
    return lastEventNanos.get();
  }

  public long eventCount() {
    return eventCount.get();
  }

  @Override
  public void close() {
    try {
      connection.close();
    } catch (IOException | RuntimeException ignored) {
      // Closing a dead connection has nothing left to release.
    }
  }
}
