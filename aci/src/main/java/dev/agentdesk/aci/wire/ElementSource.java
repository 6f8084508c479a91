package dev.agentdesk.aci.wire;

/** Backend that produced an element (schema {@code ElementSource}). */
public enum ElementSource implements WireEnum {
  ATSPI("atspi"),
  UIA("uia"),
  AX("ax"),
  CDP("cdp"),
  SOM("som");

  private final String wire;

  ElementSource(String wire) {
    this.wire = wire;
  }

  @Override
  public String wire() {
    return wire;
  }
}
