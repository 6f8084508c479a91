package dev.agentdesk.aci.wire;

/** Guest operating system (schema {@code Platform}). */
public enum Platform implements WireEnum {
  LINUX("linux"),
  WINDOWS("windows"),
  MACOS("macos");

  private final String wire;

  Platform(String wire) {
    this.wire = wire;
  }

  @Override
  public String wire() {
    return wire;
  }
}
