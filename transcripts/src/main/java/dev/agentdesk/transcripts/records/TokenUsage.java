package dev.agentdesk.transcripts.records;

/**
 * Tokens of one model response. {@code input} excludes cached input on every provider (adapters
 * normalise: Codex reports input including cached, Claude reports it separately).
 * {@code cacheCreation1h} is the part of {@code cacheCreation} written to the one-hour cache (Claude
 * reports the split; it is priced apart), zero where the provider does not say.
 */
public record TokenUsage(long input, long output, long cacheRead, long cacheCreation, long cacheCreation1h) {
  public static final TokenUsage ZERO = new TokenUsage(0, 0, 0, 0, 0);

  /** Usage without a one-hour cache split. */
  public TokenUsage(long input, long output, long cacheRead, long cacheCreation) {
    this(input, output, cacheRead, cacheCreation, 0);
  }

  public TokenUsage plus(TokenUsage o) {
    return new TokenUsage(input + o.input, output + o.output, cacheRead + o.cacheRead, cacheCreation + o.cacheCreation,
        cacheCreation1h + o.cacheCreation1h);
  }

  public long total() {
    return input + output + cacheRead + cacheCreation;
  }

  /** Most tokens one response can plausibly report for one kind (no model has a context near it). */
  public static final long ABSURD = 100_000_000L;

  /** False for a damaged count: a negative number, or more than {@link #ABSURD} of one kind. */
  public boolean plausible() {
    return input >= 0 && output >= 0 && cacheRead >= 0 && cacheCreation >= 0 && cacheCreation1h >= 0
        && input <= ABSURD && output <= ABSURD && cacheRead <= ABSURD && cacheCreation <= ABSURD;
  }

  public boolean isZero() {
    return input == 0 && output == 0 && cacheRead == 0 && cacheCreation == 0;
  }
}
