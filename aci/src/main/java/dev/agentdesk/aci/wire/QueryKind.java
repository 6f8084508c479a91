package dev.agentdesk.aci.wire;

/** The closed query vocabulary ({@code query.q}). */
public enum QueryKind implements WireEnum {
  PLATFORM("platform"),
  SCREEN_SIZE("screen_size"),
  READY("ready"),
  LIST_WINDOWS("list_windows");

  private final String wire;

  QueryKind(String wire) {
    this.wire = wire;
  }

  @Override
  public String wire() {
    return wire;
  }
}
