package dev.agentdesk.aci.wire;

/** Observation kinds a client accepts or a runtime offers (schema {@code ObservationType}). */
public enum ObservationType implements WireEnum {
  A11Y("a11y"),
  SCREENSHOT("screenshot"),
  SCREENCAST("screencast"),
  VIDEO("video"),
  SOM("som");

  private final String wire;

  ObservationType(String wire) {
    this.wire = wire;
  }

  @Override
  public String wire() {
    return wire;
  }
}
