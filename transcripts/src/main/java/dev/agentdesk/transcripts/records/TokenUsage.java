package dev.agentdesk.transcripts.records;

/**
 * Tokens of one model response. {@code input} excludes cached input on every provider (adapters
 * normalise: Codex reports input including cached, Claude reports it separately).
 */
public record TokenUsage(long input, long output, long cacheRead, long cacheCreation) {
  public static final TokenUsage ZERO = new TokenUsage(0, 0, 0, 0);

  public TokenUsage plus(TokenUsage o) {
    return new TokenUsage(input + o.input, output + o.output, cacheRead + o.cacheRead, cacheCreation + o.cacheCreation);
  }

  public long total() {
    return input + output + cacheRead + cacheCreation;
  }

  public boolean isZero() {
    return input == 0 && output == 0 && cacheRead == 0 && cacheCreation == 0;
  }
}
