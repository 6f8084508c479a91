package dev.agentdesk.aci.wire;

/**
 * The {@code value} of the result answering a buffered exec (schema {@code ExecResult}).
 * {@code exitCode} is null when the child was killed by a signal or timed out; {@code signal} is
 * null when none killed it (absent on the wire).
 */
public record ExecResult(
    Long exitCode,
    Long signal,
    boolean timedOut,
    String stdout,
    String stderr,
    boolean stdoutTruncated,
    boolean stderrTruncated,
    double durationMs) {
  public ExecResult {
    Check.required(stdout, "stdout");
    Check.required(stderr, "stderr");
    Check.atLeast(durationMs, 0.0, "duration_ms");
  }
}
