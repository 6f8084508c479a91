package dev.agentdesk.aci.wire;

/** A read-only question to the runtime, answered by a {@link Result} with the same call id. */
public record Query(String callId, QueryKind q) implements AciMessage {
  public static final String TYPE = "query";

  public Query {
    Check.required(callId, "call_id");
    Check.required(q, "q");
  }

  @Override
  public String type() {
    return TYPE;
  }
}
