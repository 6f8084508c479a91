package dev.agentdesk.notify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.notify.internal.FreedesktopNotifications;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.freedesktop.dbus.connections.impl.DBusConnection;
import org.freedesktop.dbus.connections.impl.DBusConnectionBuilder;
import org.freedesktop.dbus.types.UInt32;
import org.freedesktop.dbus.types.Variant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Desktop notifications over a real D-Bus: a private session bus (dbus-daemon started by the
 * test) with a notification server on it that owns {@code org.freedesktop.Notifications} and
 * records each {@code Notify} call, as a desktop's notification daemon would show it.
 */
class DesktopNotifyTest {
  record Shown(String app, String summary, String body, byte urgency) {}

  static final class Server implements FreedesktopNotifications {
    final List<Shown> shown = new CopyOnWriteArrayList<>();

    @Override
    public UInt32 Notify(String appName, UInt32 replacesId, String appIcon, String summary, String body,
        List<String> actions, Map<String, Variant<?>> hints, int expireTimeout) {
      Variant<?> u = hints.get("urgency");
      shown.add(new Shown(appName, summary, body, u == null ? -1 : (Byte) u.getValue()));
      return new UInt32(shown.size());
    }

    @Override
    public String getObjectPath() {
      return OBJECT_PATH;
    }
  }

  @Test
  void aQuestionIsShownOnTheDesktop(@TempDir Path dir) throws Exception {
    Path socket = dir.resolve("bus");
    Process daemon = new ProcessBuilder("dbus-daemon", "--session", "--nofork", "--nopidfile",
        "--address=unix:path=" + socket, "--print-address=1").redirectErrorStream(true).start();
    try {
      String address = new BufferedReader(new InputStreamReader(daemon.getInputStream(), StandardCharsets.UTF_8))
          .readLine();
      assertThat(address).as("dbus-daemon's address").startsWith("unix:path=");
      Server server = new Server();
      try (DBusConnection c = DBusConnectionBuilder.forAddress(address).withShared(false).build()) {
        c.requestBusName(FreedesktopNotifications.BUS_NAME);
        c.exportObject(FreedesktopNotifications.OBJECT_PATH, server);
        try (Notifier n = Notifier.start(Notifier.Options.defaults().withDesktopBus(address)
            .withBaseUrl(() -> "http://127.0.0.1:7420/"), x -> {})) {
          assertThat(n.desktopEnabled()).isTrue();
          n.observe(new SessionView("ab12", "#/agents/ab12", "claude · ui", "claude", true,
              "Which database should I use?", false, null, null, List.of(), false, null, 0));
          Await.until("the desktop notification", () -> server.shown.size() == 1);
          assertThat(server.shown.get(0)).isEqualTo(new Shown("agentdesk", "claude · ui needs you",
              "Which database should I use?\nhttp://127.0.0.1:7420/#/agents/ab12", (byte) 2));
          assertThat(n.stats().delivered()).isGreaterThanOrEqualTo(1);
        }
      }
    } finally {
      daemon.destroy();
      daemon.waitFor(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void aBusWithoutANotificationServerIsDroppedAtOnce(@TempDir Path dir) throws Exception {
    Process daemon = new ProcessBuilder("dbus-daemon", "--session", "--nofork", "--nopidfile",
        "--address=unix:path=" + dir.resolve("bus"), "--print-address=1").redirectErrorStream(true).start();
    try {
      String address = new BufferedReader(new InputStreamReader(daemon.getInputStream(), StandardCharsets.UTF_8))
          .readLine();
      try (Notifier n = Notifier.start(Notifier.Options.defaults().withDesktopBus(address)
          .withRetries(4, java.time.Duration.ofMillis(50)), x -> {})) {
        n.observe(new SessionView("ab12", "#/agents/ab12", "claude · ui", "claude", true, "Proceed?", false, null, null,
            List.of(), false, null, 0));
        Await.until("the drop", () -> n.stats().dropped() == 1);
        assertThat(n.stats().failedAttempts()).as("not retried").isEqualTo(1);
        assertThat(n.stats().lastFailure()).contains("ServiceUnknown");
      }
    } finally {
      daemon.destroy();
      daemon.waitFor(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void aBusThatIsNotThereIsRetriedThenDropped(@TempDir Path dir) throws Exception {
    try (Notifier n = Notifier.start(Notifier.Options.defaults().withDesktopBus("unix:path=" + dir.resolve("no-bus"))
        .withRetries(2, java.time.Duration.ofMillis(50)), x -> {})) {
      n.observe(new SessionView("ab12", "#/agents/ab12", "claude · ui", "claude", true, "Proceed?", false, null, null,
          List.of(), false, null, 0));
      Await.until("the drop", () -> n.stats().dropped() == 1);
      assertThat(n.stats().lastFailure()).startsWith("desktop: org.freedesktop.Notifications on unix:path=");
    }
  }
}
