package dev.agentdesk.aci.wire;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The answer to a query, a buffered exec or a clipboard read; also the error channel (call id
 * {@code "?"} for session-level errors). {@code value} is schema-open JSON: null means absent, a
 * JSON null is a {@code NullNode}. {@code error} may be null (absent).
 */
public record Result(String callId, boolean ok, JsonNode value, String error) implements AciMessage {
  public static final String TYPE = "result";

  public Result {
    Check.required(callId, "call_id");
    if (value != null) {
      value = value.deepCopy();
    }
  }

  public static Result ok(String callId, JsonNode value) {
    return new Result(callId, true, value, null);
  }

  public static Result error(String callId, String error) {
    return new Result(callId, false, null, error);
  }

  /** A copy of the value the caller may change, or null when absent. */
  @Override
  public JsonNode value() {
    return value == null ? null : value.deepCopy();
  }

  @Override
  public String type() {
    return TYPE;
  }
}
