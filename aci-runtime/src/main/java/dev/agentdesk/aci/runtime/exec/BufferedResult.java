package dev.agentdesk.aci.runtime.exec;

/** The buffered form's result: the outcome plus each channel decoded as lossy UTF-8, capped. */
public record BufferedResult(ExecOutcome outcome, String stdout, String stderr, boolean stdoutTruncated,
    boolean stderrTruncated) {}
