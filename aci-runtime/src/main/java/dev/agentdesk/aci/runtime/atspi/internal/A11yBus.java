package dev.agentdesk.aci.runtime.atspi.internal;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
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
  private final NodeCache cache = new NodeCache();
  /** Match-rule handles of the change-event subscription (only the observing thread edits it). */
  private final List<AutoCloseable> eventHandlers = new ArrayList<>();
  private final Object barrierLock = new Object();
  private long barrierSent;
  private long barrierSeen;

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
    // One signal thread (dbus-java's default, stated because the event cache relies on it):
    // signals are handled in the order they were read, so a barrier signal that comes back
    // after an application's reply is handled after every event that application sent first.
    return DBusConnectionBuilder.forAddress(address).withShared(false)
        .receivingThreadConfig().withSignalThreadCount(1).connectionConfig()
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
   * changes and {@link #cache()} learns what changed. Applications only emit the events somebody
   * registered for, so the listener is also announced to the registry; an older registry without
   * the three-argument method is tolerated. The registry's own signals and the barrier signal
   * ({@link #sync}) are watched too.
   */
  public void watchChangeEvents(long timeoutMs) throws BusCallException {
    try {
      connection.addGenericSigHandler(new DBusMatchRule("signal", REGISTRY_IFACE, null),
          this::onRegistrySignal);
      connection.addGenericSigHandler(new DBusMatchRule("signal", BARRIER_IFACE, "Barrier"),
          this::onBarrier);
    } catch (DBusException e) {
      throw new BusCallException(BusCallException.Kind.ERROR,
          "cannot subscribe to AT-SPI events: " + e.getMessage());
    }
    subscribe(timeoutMs);
  }

  private static final String REGISTRY = "org.a11y.atspi.Registry";
  private static final String REGISTRY_PATH = "/org/a11y/atspi/registry";
  private static final String REGISTRY_IFACE = "org.a11y.atspi.Registry";
  private static final String OBJECT_EVENTS = "org.a11y.atspi.Event.Object";
  private static final String WINDOW_EVENTS = "org.a11y.atspi.Event.Window";
  private static final String BARRIER_IFACE = "dev.agentdesk.aci.EventBarrier";
  private static final String BARRIER_PATH = "/dev/agentdesk/aci/EventBarrier";
  /** The event classes registered with the registry, as {@code GetRegisteredEvents} lists them. */
  private static final List<String> EVENT_CLASSES = List.of("object:", "window:");

  private void subscribe(long timeoutMs) throws BusCallException {
    try {
      for (String iface : new String[] {OBJECT_EVENTS, WINDOW_EVENTS}) {
        eventHandlers.add(connection.addGenericSigHandler(new DBusMatchRule("signal", iface, null),
            this::onSignal));
      }
    } catch (DBusException e) {
      throw new BusCallException(BusCallException.Kind.ERROR,
          "cannot subscribe to AT-SPI events: " + e.getMessage());
    }
    for (String event : EVENT_CLASSES) {
      try {
        call(timeoutMs, REGISTRY, REGISTRY_PATH, REGISTRY_IFACE, "RegisterEvent", "sass", event,
            new String[0], "");
      } catch (BusCallException e) {
        if (e.kind() == BusCallException.Kind.DISCONNECTED) {
          throw e;
        }
        // Registries before at-spi2-core 2.46 take only the event name.
        call(timeoutMs, REGISTRY, REGISTRY_PATH, REGISTRY_IFACE, "RegisterEvent", "s", event);
      }
    }
  }

  /**
   * Drops the change-event subscription the way a lost one looks from outside: the match rules
   * go and the registry is told this listener left. Tests use it to check that the engine
   * notices ({@link #checkSubscription}) instead of trusting a cache nobody updates any more.
   */
  public void dropSubscription(long timeoutMs) throws BusCallException {
    for (AutoCloseable h : eventHandlers) {
      try {
        h.close();
      } catch (Exception ignored) {
        // A rule that cannot be removed on a dying connection is gone with it.
      }
    }
    eventHandlers.clear();
    for (String event : EVENT_CLASSES) {
      call(timeoutMs, REGISTRY, REGISTRY_PATH, REGISTRY_IFACE, "DeregisterEvent", "s", event);
    }
  }

  /** Sends the registry's {@code GetRegisteredEvents}; {@link #checkSubscription} reads it. */
  Pending askRegisteredEvents() throws BusCallException {
    return send(REGISTRY, REGISTRY_PATH, REGISTRY_IFACE, "GetRegisteredEvents", null);
  }

  /**
   * Compares the registry's list of listeners with this connection's subscription. When ours is
   * missing (deregistered, the registry restarted) or our match rules are gone, subscribes again
   * and empties the cache: events were missed in between.
   */
  void checkSubscription(Object[] registeredEvents, long timeoutMs) throws BusCallException {
    String me = connection.getUniqueName();
    Set<String> mine = new java.util.HashSet<>();
    for (Object o : Decode.list(registeredEvents[0])) {
      List<Object> pair = Decode.struct(o);
      if (pair.size() == 2 && me.equals(Decode.string(pair.get(0)))) {
        mine.add(eventClass(Decode.string(pair.get(1))));
      }
    }
    if (mine.containsAll(EVENT_CLASSES.stream().map(A11yBus::eventClass).toList())
        && !eventHandlers.isEmpty()) {
      return;
    }
    cache.invalidateAll("the event subscription was lost");
    dropSubscriptionQuietly();
    subscribe(timeoutMs);
  }

  /** The registry lists {@code object:} as {@code Object::}; both name the class "object". */
  private static String eventClass(String event) {
    int colon = event.indexOf(':');
    return (colon < 0 ? event : event.substring(0, colon)).toLowerCase(java.util.Locale.ROOT);
  }

  private void dropSubscriptionQuietly() {
    try {
      dropSubscription(250);
    } catch (BusCallException ignored) {
      // Re-subscribing below is what matters; a stale registration is harmless.
    }
  }

  /**
   * Waits until every signal that reached this connection before now has been handled: sends a
   * broadcast signal to itself and waits for it to come back through the signal thread. Called
   * after the applications answered a call, it orders their earlier events before the walk.
   * Returns false (and empties the cache) when the barrier did not come back in time.
   */
  boolean sync(long deadlineNanos) throws BusCallException {
    long token;
    synchronized (barrierLock) {
      token = ++barrierSent;
    }
    try {
      DBusSignal s = connection.getMessageFactory().createSignal(null, BARRIER_PATH,
          BARRIER_IFACE, "Barrier", "x", token);
      connection.sendMessage(s);
    } catch (DBusException | RuntimeException e) {
      if (!connection.isConnected()) {
        throw new BusCallException(BusCallException.Kind.DISCONNECTED,
            "the accessibility bus connection is closed");
      }
      cache.invalidateAll("the event barrier could not be sent: " + e.getMessage());
      return false;
    }
    synchronized (barrierLock) {
      while (barrierSeen < token) {
        long waitMs = (deadlineNanos - System.nanoTime()) / 1_000_000;
        if (waitMs <= 0) {
          cache.invalidateAll("the event barrier did not come back");
          return false;
        }
        try {
          barrierLock.wait(waitMs);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          cache.invalidateAll("interrupted while waiting for the event barrier");
          return false;
        }
      }
    }
    return true;
  }

  private void onBarrier(DBusSignal signal) {
    try {
      Object[] p = signal.getParameters();
      if (p != null && p.length == 1 && p[0] instanceof Number n) {
        synchronized (barrierLock) {
          barrierSeen = Math.max(barrierSeen, n.longValue());
          barrierLock.notifyAll();
        }
      }
    } catch (DBusException ignored) {
      // Not ours; the waiting walk times out and reads everything.
    }
  }

  private void onRegistrySignal(DBusSignal signal) {
    if (!"EventListenerDeregistered".equals(signal.getName())) {
      return;
    }
    try {
      Object[] p = signal.getParameters();
      if (p != null && p.length > 0 && connection.getUniqueName().equals(p[0])) {
        cache.invalidateAll("the registry dropped this connection's event listener");
      }
    } catch (DBusException e) {
      cache.invalidateAll("an unreadable registry signal: " + e.getMessage());
    }
  }

  private void onSignal(DBusSignal signal) {
    lastEventNanos.set(System.nanoTime());
    eventCount.incrementAndGet();
    String source = signal.getSource();
    String path = signal.getPath();
    if (source == null || path == null) {
      cache.invalidateAll("an AT-SPI event without a sender or path");
      return;
    }
    NodeId id = new NodeId(source, path);
    if (WINDOW_EVENTS.equals(signal.getInterface())) {
      cache.onWindowEvent(id);
    } else {
      cache.onObjectEvent(signal.getName(), id);
    }
  }

  /** What the last walks read, kept until events say it changed. */
  public NodeCache cache() {
    return cache;
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
