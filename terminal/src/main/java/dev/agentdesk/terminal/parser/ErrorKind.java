package dev.agentdesk.terminal.parser;

/** How an {@link ParsedEvent.ApiError} is classified. */
public enum ErrorKind implements WireEnum {
  SERVER("server"), AUTH("auth"), UNKNOWN("unknown");

  private final String wire;

  ErrorKind(String wire) {
    this.wire = wire;
  }

  /** The spelling used in the JSON form. */
  @Override
  public String wire() {
    return wire;
  }
}
