package dev.agentdesk.aci.wire;

/**
 * The terminal event of a streamed exec. {@code exitCode} is null (a JSON null on the wire) when a
 * signal killed the child or it never spawned; {@code signal} and {@code error} may be null.
 */
public record ExecExitMsg(
    String cause, Long exitCode, Long signal, boolean timedOut, double durationMs, boolean truncated, String error)
    implements AciMessage {
  public static final String TYPE = "exec_exit";

  public ExecExitMsg {
    Check.required(cause, "cause");
    Check.atLeast(durationMs, 0.0, "duration_ms");
  }

  @Override
  public String type() {
    return TYPE;
  }
}
