package dev.agentdesk.aci.wire;

/** What {@code tree_text} of an observation holds: the full tree or a diff. */
public enum TreeForm implements WireEnum {
  FULL("full"),
  DIFF("diff");

  private final String wire;

  TreeForm(String wire) {
    this.wire = wire;
  }

  @Override
  public String wire() {
    return wire;
  }
}
