package dev.agentdesk.aci.wire;

/** The kinds of action target a runtime advertises (schema {@code TargetKind}). */
public enum TargetKind implements WireEnum {
  POINT_PX("point_px"),
  POINT_NORM("point_norm"),
  ELEMENT_REF("element_ref");

  private final String wire;

  TargetKind(String wire) {
    this.wire = wire;
  }

  @Override
  public String wire() {
    return wire;
  }
}
