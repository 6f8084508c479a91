package dev.agentdesk.aci.wire;

/** Pointer button of drag/mouse_down/mouse_up (schema {@code PointerButton}); absent means left. */
public enum PointerButton implements WireEnum {
  LEFT("left"),
  MIDDLE("middle"),
  RIGHT("right");

  private final String wire;

  PointerButton(String wire) {
    this.wire = wire;
  }

  @Override
  public String wire() {
    return wire;
  }
}
