package dev.agentdesk.terminal.parser;

/** Why Claude Code refused a session id ({@link ParsedEvent.AgentSessionConflict}). */
public enum ConflictKind implements WireEnum {
  IN_USE("in-use"), NOT_FOUND("not-found");

  private final String wire;

  ConflictKind(String wire) {
    this.wire = wire;
  }

  /** The spelling used in the JSON form. */
  @Override
  public String wire() {
    return wire;
  }
}
