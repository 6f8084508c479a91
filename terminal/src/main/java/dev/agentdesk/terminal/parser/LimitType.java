package dev.agentdesk.terminal.parser;

/** Which Claude usage window a {@link ParsedEvent.UsageLimit} is about. */
public enum LimitType implements WireEnum {
  WEEKLY("weekly"), SESSION("session");

  private final String wire;

  LimitType(String wire) {
    this.wire = wire;
  }

  /** The spelling used in the JSON form. */
  @Override
  public String wire() {
    return wire;
  }
}
