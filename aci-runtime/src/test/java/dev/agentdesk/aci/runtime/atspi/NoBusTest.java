package dev.agentdesk.aci.runtime.atspi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdesk.aci.runtime.atspi.StructuredObservationException.Kind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Without a reachable accessibility bus every call is a typed error, never a crash. */
class NoBusTest {
  @TempDir
  Path dir;

  static void assertUnavailable(AtspiSettings settings, String expectedDetailStart) {
    try (AtspiEngine engine = AtspiEngine.create(settings);
        StructuredObserver o = engine.openSession()) {
      for (int attempt = 0; attempt < 2; attempt++) {
        assertThatThrownBy(() -> o.observe(ObserveRequest.FULL))
            .isInstanceOfSatisfying(StructuredObservationException.class, e -> {
              assertThat(e.kind()).isEqualTo(Kind.BUS_UNAVAILABLE);
              assertThat(e.getMessage()).startsWith(
                  "structured observation failed: AT-SPI bus unavailable: "
                      + expectedDetailStart);
            });
      }
    }
  }

  @Test
  void noSessionBusAtAll() {
    AtspiSettings none = AtspiSettings.fromEnvironment(Map.of());
    assertThat(none.sessionBus()).isEmpty();
    assertUnavailable(none, "no session bus (DBUS_SESSION_BUS_ADDRESS is unset)");
  }

  @Test
  void sessionBusSocketThatDoesNotExist() {
    assertUnavailable(AtspiSettings.forSessionBus("unix:path=" + dir.resolve("no-such-bus")),
        "cannot connect to the session bus unix:path=" + dir.resolve("no-such-bus"));
    assertUnavailable(AtspiSettings.forSessionBus("unix:abstract=/agentdesk/no-such-bus-"
        + ProcessHandle.current().pid()), "cannot connect to the session bus unix:abstract=");
  }

  @Test
  void explicitA11yBusThatIsAPlainFile() throws Exception {
    Path notASocket = Files.writeString(dir.resolve("bus"), "not a socket");
    AtspiSettings s = new AtspiSettings(Optional.empty(),
        Optional.of("unix:path=" + notASocket), WalkLimits.DEFAULTS);
    assertUnavailable(s, "cannot connect to the accessibility bus unix:path=" + notASocket);
  }

  @Test
  void addressesThisEngineCannotUse() {
    assertUnavailable(AtspiSettings.forSessionBus("tcp:host=127.0.0.1,port=1"),
        "session bus address has no unix:path= or unix:abstract= entry: tcp:host=127.0.0.1");
    assertUnavailable(new AtspiSettings(Optional.empty(), Optional.of("nonsense"),
        WalkLimits.DEFAULTS), "AT_SPI_BUS_ADDRESS has no unix:path= or unix:abstract= entry");
  }

  @Test
  void elementVerbsBeforeAnyObserveAreStaleWithoutTouchingTheBus() {
    try (AtspiEngine engine = AtspiEngine.create(AtspiSettings.fromEnvironment(Map.of()));
        StructuredObserver o = engine.openSession()) {
      String detail = "stale_element_ref: no structured observation on this session yet"
          + " (send an `observe` action first)";
      assertThatThrownBy(() -> o.invokeAction("e1", null)).hasMessage(detail);
      assertThatThrownBy(() -> o.setValue("e1", "x")).hasMessage(detail);
      assertThatThrownBy(() -> o.resolveCenter("e1", 100, 100)).hasMessage(detail);
      assertThatThrownBy(() -> o.setValue("e1", null))
          .hasMessage("set_value requires `text` (the new value)");
    }
  }

  @Test
  void wireRequestValidation() {
    assertThatThrownBy(() -> ObserveRequest.fromWire(false, null, null))
        .isInstanceOfSatisfying(StructuredObservationException.class, e -> {
          assertThat(e.kind()).isEqualTo(Kind.BAD_REQUEST);
          assertThat(e.getMessage())
              .isEqualTo("observe structured:false is the pixel path \u2014 use `screenshot`");
        });
    assertThat(ObserveRequest.fromWire(null, null, null)).isEqualTo(ObserveRequest.FULL);
    assertThat(ObserveRequest.fromWire(true, true, 250)).isEqualTo(new ObserveRequest(true, 250));
    assertThatThrownBy(() -> ObserveRequest.fromWire(null, null, -1))
        .isInstanceOf(StructuredObservationException.class);
    assertThat(WalkLimits.DEFAULTS.quietWindowFor(0).toMillis()).isZero();
    assertThat(WalkLimits.DEFAULTS.quietWindowFor(1).toMillis()).isEqualTo(10);
    assertThat(WalkLimits.DEFAULTS.quietWindowFor(400).toMillis()).isEqualTo(400);
    assertThat(WalkLimits.DEFAULTS.quietWindowFor(60_000).toMillis()).isEqualTo(1000);
  }
}
