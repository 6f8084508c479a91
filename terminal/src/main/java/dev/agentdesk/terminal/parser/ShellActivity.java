package dev.agentdesk.terminal.parser;

/** Shell activity carried by {@link ParsedEvent.ShellState}. */
public enum ShellActivity implements WireEnum {
  BUSY("busy"), IDLE("idle");

  private final String wire;

  ShellActivity(String wire) {
    this.wire = wire;
  }

  /** The spelling used in the JSON form. */
  @Override
  public String wire() {
    return wire;
  }
}
