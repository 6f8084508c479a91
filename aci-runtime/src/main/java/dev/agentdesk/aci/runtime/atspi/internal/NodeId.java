package dev.agentdesk.aci.runtime.atspi.internal;

/**
 * An accessible's identity on the a11y bus. Refs are keyed by it: GTK's bridge numbers object
 * paths from a counter, so a path is not handed to a different widget while the app runs.
 */
public record NodeId(String bus, String path) {
  /** The {@code (so)} reference AT-SPI uses for "no object". */
  public boolean isNull() {
    return path.equals("/org/a11y/atspi/null");
  }
}
