package dev.agentdesk.aci.wire;

/** An action request; answered by ack, observation or result with the same call id. */
public record ActionMsg(String callId, Action action) implements AciMessage {
  public static final String TYPE = "action";

  public ActionMsg {
    Check.required(callId, "call_id");
    Check.required(action, "action");
  }

  @Override
  public String type() {
    return TYPE;
  }
}
