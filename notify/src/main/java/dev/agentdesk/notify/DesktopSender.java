package dev.agentdesk.notify;

import dev.agentdesk.notify.internal.FreedesktopNotifications;
import java.util.List;
import java.util.Map;
import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.connections.impl.DBusConnectionBuilder;
import org.freedesktop.dbus.exceptions.DBusException;
import org.freedesktop.dbus.exceptions.DBusExecutionException;
import org.freedesktop.dbus.types.UInt32;
import org.freedesktop.dbus.types.Variant;

/**
 * A freedesktop notification through {@code org.freedesktop.Notifications} on the desktop's session
 * bus, over dbus-java (no {@code notify-send} process per notification). The connection is made on
 * first use and made again after a failure.
 */
final class DesktopSender implements Sender, AutoCloseable {
  static final int CONNECT_TIMEOUT_MS = 2000;
  /** How long the notification stays up, in milliseconds (the server may ignore it). */
  static final int EXPIRE_MS = 15_000;
  private final String address;
  private DBusConnection connection;

  DesktopSender(String address) {
    this.address = address;
  }

  @Override
  public String name() {
    return "desktop";
  }

  @Override
  public void send(Notification n) throws Failure {
    try {
      FreedesktopNotifications server = connect().getRemoteObject(FreedesktopNotifications.BUS_NAME,
          FreedesktopNotifications.OBJECT_PATH, FreedesktopNotifications.class);
      String body = n.text().isEmpty() ? "" : n.text();
      if (n.url() != null) {
        body = body.isEmpty() ? n.url() : body + "\n" + n.url();
      }
      byte urgency = n.event() == EventKind.AWAITING_INPUT || n.event() == EventKind.EXIT_ERROR ? (byte) 2 : (byte) 1;
      server.Notify("agentdesk", new UInt32(0), "", n.title(), body, List.of(),
          Map.of("urgency", new Variant<>(urgency), "category", new Variant<>("im")), EXPIRE_MS);
    } catch (DBusException | DBusExecutionException e) {
      close();
      // A bus without a notification server (a headless machine's session bus) will not grow
      // one in the next seconds: no retries, one log line per notification.
      boolean noServer = e instanceof org.freedesktop.dbus.errors.ServiceUnknown;
      throw new Failure("org.freedesktop.Notifications on " + address + ": "
          + (noServer ? "ServiceUnknown: " : "") + e.getMessage(), noServer);
    }
  }

  private DBusConnection connect() throws DBusException {
    if (connection == null || !connection.isConnected()) {
      connection = DBusConnectionBuilder.forAddress(address).withShared(false)
          .transportConfig().withTimeout(CONNECT_TIMEOUT_MS).back().build();
    }
    return connection;
  }

  @Override
  public void close() {
    if (connection != null) {
      try {
        connection.close();
      } catch (java.io.IOException | RuntimeException e) {
        // a bus that is gone needs no goodbye
      }
      connection = null;
    }
  }
}
