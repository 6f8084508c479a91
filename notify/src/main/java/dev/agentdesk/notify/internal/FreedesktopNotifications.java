package dev.agentdesk.notify.internal;

import java.util.List;
import java.util.Map;
import org.freedesktop.dbus.annotations.DBusInterfaceName;
import org.freedesktop.dbus.interfaces.DBusInterface;
import org.freedesktop.dbus.types.UInt32;
import org.freedesktop.dbus.types.Variant;

/**
 * The one method of the Desktop Notifications Specification agentdesk calls, on
 * {@code org.freedesktop.Notifications} at {@code /org/freedesktop/Notifications}.
 */
@DBusInterfaceName("org.freedesktop.Notifications")
public interface FreedesktopNotifications extends DBusInterface {
  String BUS_NAME = "org.freedesktop.Notifications";
  String OBJECT_PATH = "/org/freedesktop/Notifications";

  /**
   * Shows a notification; returns its id. Signature {@code susssasa{sv}i}.
   *
   * @param expireTimeout milliseconds, -1 for the server's default
   */
  UInt32 Notify(String appName, UInt32 replacesId, String appIcon, String summary, String body, List<String> actions,
      Map<String, Variant<?>> hints, int expireTimeout);
}
