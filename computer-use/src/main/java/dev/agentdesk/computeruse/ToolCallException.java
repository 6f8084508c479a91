package dev.agentdesk.computeruse;

/**
 * A tool call that cannot be carried out as given: a missing or mistyped field, an action the tool
 * version does not have, a coordinate off the declared display, a key name nobody knows, or an
 * action ACI v0's vocabulary cannot express. The message is one sentence meant for the model (it
 * goes into the tool result) and for the person reading the log.
 */
public final class ToolCallException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What kind of problem the call has. */
  public enum Reason {
    /** A field the action needs is absent. */
    MISSING_FIELD,
    /** A field has the wrong JSON type or a value outside its range. */
    INVALID_VALUE,
    /** The action is not one of the tool's (or of this tool version's). */
    UNKNOWN_ACTION,
    /** A key name that is neither an xdotool keysym name nor a name ACI knows. */
    UNKNOWN_KEY,
    /** The action is the tool's, but ACI v0 has no verb that does it. */
    NOT_EXPRESSIBLE
  }

  private final Reason reason;

  ToolCallException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}
