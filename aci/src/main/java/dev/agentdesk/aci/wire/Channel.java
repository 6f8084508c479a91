package dev.agentdesk.aci.wire;

/** Output channel of a streamed exec chunk. */
public enum Channel implements WireEnum {
  STDOUT("stdout"),
  STDERR("stderr");

  private final String wire;

  Channel(String wire) {
    this.wire = wire;
  }

  @Override
  public String wire() {
    return wire;
  }
}
