package dev.agentdesk.aci.wire;

/** The answer to most actions; {@code error} (may be null) explains an {@code ok:false} nack. */
public record Ack(String callId, boolean ok, String error) implements AciMessage {
  public static final String TYPE = "ack";

  public Ack {
    Check.required(callId, "call_id");
  }

  public static Ack ok(String callId) {
    return new Ack(callId, true, null);
  }

  public static Ack nack(String callId, String error) {
    return new Ack(callId, false, error);
  }

  @Override
  public String type() {
    return TYPE;
  }
}
