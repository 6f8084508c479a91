package dev.agentdesk.aci.runtime.atspi.internal;

import java.util.Optional;
import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.exceptions.DBusException;

/**
 * Finds the accessibility bus: an explicit address (AT_SPI_BUS_ADDRESS) wins; otherwise the
 * session bus is asked with {@code org.a11y.Bus.GetAddress}. Addresses are D-Bus address lists
 * ({@code a;b}); the first {@code unix:path=} or {@code unix:abstract=} entry is used.
 */
public final class BusLocator {
  private BusLocator() {}

  /** Thrown when no usable bus could be found; the message says which step failed. */
  public static final class Unavailable extends Exception {
    private static final long serialVersionUID = 1L;

    public Unavailable(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** The first entry of a D-Bus address list that this engine can connect to. */
  public static Optional<String> firstSupported(String addressList) {
    if (addressList == null) {
      return Optional.empty();
    }
    for (String entry : addressList.split(";")) {
      String e = entry.trim();
      if (e.startsWith("unix:path=") || e.startsWith("unix:abstract=")
          || (e.startsWith("unix:") && (e.contains(",path=") || e.contains(",abstract=")))) {
        return Optional.of(e);
      }
    }
    return Optional.empty();
  }

  public static String a11yAddress(Optional<String> explicitA11y, Optional<String> sessionBus,
      long timeoutMs) throws Unavailable {
    if (explicitA11y.isPresent() && !explicitA11y.get().isBlank()) {
      return firstSupported(explicitA11y.get()).orElseThrow(() -> new Unavailable(
          "AT_SPI_BUS_ADDRESS has no unix:path= or unix:abstract= entry: " + explicitA11y.get(),
          null));
    }
    if (sessionBus.isEmpty() || sessionBus.get().isBlank()) {
      throw new Unavailable("no session bus (DBUS_SESSION_BUS_ADDRESS is unset)", null);
    }
    String session = firstSupported(sessionBus.get()).orElseThrow(() -> new Unavailable(
        "session bus address has no unix:path= or unix:abstract= entry: " + sessionBus.get(),
        null));
    DBusConnection c;
    try {
      c = A11yBus.open(session);
    } catch (DBusException | RuntimeException e) {
      throw new Unavailable("cannot connect to the session bus " + session + ": "
          + e.getMessage(), e);
    }
    try {
      A11yBus bus = wrap(c, session);
      Object[] reply = bus.call(timeoutMs * 4, "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus",
          "GetAddress", null);
      String address = reply.length > 0 ? Decode.string(reply[0]) : "";
      return firstSupported(address).orElseThrow(() -> new Unavailable(
          "org.a11y.Bus.GetAddress returned no usable address: '" + address + "'", null));
    } catch (BusCallException e) {
      throw new Unavailable("org.a11y.Bus.GetAddress on the session bus failed ("
          + e.getMessage() + ") \u2014 is at-spi-bus-launcher running?", e);
    } finally {
      try {
        c.close();
      } catch (Exception ignored) {
        // The address is all we needed from the session bus.
      }
    }
  }

  private static A11yBus wrap(DBusConnection c, String address) {
    return A11yBus.wrapForLookup(c, address);
  }
}
