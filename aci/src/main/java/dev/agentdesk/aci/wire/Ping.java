package dev.agentdesk.aci.wire;

/** Liveness ping; {@code t} (an opaque number the peer echoes) may be null (absent). */
public record Ping(Double t) implements AciMessage {
  public static final String TYPE = "ping";

  public Ping {
    Check.finite(t, "t");
  }

  @Override
  public String type() {
    return TYPE;
  }
}
