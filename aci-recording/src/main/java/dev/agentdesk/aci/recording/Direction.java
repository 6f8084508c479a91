package dev.agentdesk.aci.recording;

/** Which way a recorded message went. */
public enum Direction {
  /** From the client (agent, SDK, browser) to the runtime. */
  CLIENT_TO_RUNTIME("c2s"),
  /** From the runtime to the client. */
  RUNTIME_TO_CLIENT("s2c");

  private final String wire;

  Direction(String wire) {
    this.wire = wire;
  }

  /** The spelling in a recording's lines (and in JSON). */
  @com.fasterxml.jackson.annotation.JsonValue
  public String wire() {
    return wire;
  }

  static Direction of(String wire) {
    for (Direction d : values()) {
      if (d.wire.equals(wire)) {
        return d;
      }
    }
    throw new RecordingException("unknown direction \"" + wire + "\" (c2s or s2c)");
  }
}
