package dev.agentdesk.aci.runtime.exec;

/**
 * How a run ended, for both forms. {@code exitCode} is null when the child was killed by the
 * runtime (then {@code signal} says which signal and {@code timedOut} whether the deadline did it).
 */
public record ExecOutcome(Integer exitCode, Integer signal, boolean timedOut, double durationMs) {}
