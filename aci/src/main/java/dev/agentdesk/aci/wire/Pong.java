package dev.agentdesk.aci.wire;

/** Liveness pong; {@code t} (an opaque number the peer echoes) may be null (absent). */
public record Pong(Double t) implements AciMessage {
  public static final String TYPE = "pong";

  public Pong {
    Check.finite(t, "t");
  }

  @Override
  public String type() {
    return TYPE;
  }
}
