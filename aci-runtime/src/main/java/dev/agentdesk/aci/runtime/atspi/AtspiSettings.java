package dev.agentdesk.aci.runtime.atspi;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the engine finds its buses and how far it walks.
 *
 * @param sessionBus the session bus address ({@code DBUS_SESSION_BUS_ADDRESS}), asked for the
 *     accessibility bus with {@code org.a11y.Bus.GetAddress}
 * @param a11yBus an explicit accessibility bus address ({@code AT_SPI_BUS_ADDRESS}); when set
 *     the session bus is not consulted
 * @param eventCache keep what each walk read and ask again only for what AT-SPI events say
 *     changed (the default); {@code false} reads every accessible on every observe, the path the
 *     benchmark measures beside it and the tests compare it with
 */
public record AtspiSettings(Optional<String> sessionBus, Optional<String> a11yBus,
    WalkLimits limits, boolean eventCache) {

  public AtspiSettings {
    Objects.requireNonNull(sessionBus);
    Objects.requireNonNull(a11yBus);
    Objects.requireNonNull(limits);
  }

  /** Settings with the event cache on. */
  public AtspiSettings(Optional<String> sessionBus, Optional<String> a11yBus, WalkLimits limits) {
    this(sessionBus, a11yBus, limits, true);
  }

  public static AtspiSettings fromEnvironment(Map<String, String> env) {
    return new AtspiSettings(nonBlank(env.get("DBUS_SESSION_BUS_ADDRESS")),
        nonBlank(env.get("AT_SPI_BUS_ADDRESS")), WalkLimits.DEFAULTS);
  }

  public static AtspiSettings forSessionBus(String address) {
    return new AtspiSettings(Optional.of(address), Optional.empty(), WalkLimits.DEFAULTS);
  }

  public AtspiSettings withLimits(WalkLimits newLimits) {
    return new AtspiSettings(sessionBus, a11yBus, newLimits, eventCache);
  }

  public AtspiSettings withEventCache(boolean on) {
    return new AtspiSettings(sessionBus, a11yBus, limits, on);
  }

  private static Optional<String> nonBlank(String s) {
    return s == null || s.isBlank() ? Optional.empty() : Optional.of(s);
  }
}
