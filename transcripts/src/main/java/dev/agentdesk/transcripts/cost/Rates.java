package dev.agentdesk.transcripts.cost;

import dev.agentdesk.transcripts.records.TokenUsage;

/**
 * What one model costs during one period. {@code cacheWrite} prices the 5-minute cache writes,
 * {@code cacheWrite1h} the one-hour ones (null where the source lists no separate price: then the
 * 5-minute price applies). A null {@code cacheWrite} or {@code cacheRead} is priced as input, which is
 * what providers without prompt-cache prices bill. Reasoning tokens are part of output for every
 * supported agent and billed at the output price by every listed provider, so there is no separate
 * reasoning price.
 */
public record Rates(Price input, Price output, Price cacheWrite, Price cacheWrite1h, Price cacheRead) {
  public Rates {
    if (input == null || output == null) {
      throw new IllegalArgumentException("input and output prices are required");
    }
  }

  /** USD of {@code u}, whose context decides the tier. Codex cached input is only in {@code cacheRead}. */
  public double usd(TokenUsage u) {
    long context = u.input() + u.cacheRead() + u.cacheCreation();
    return usd(u, context);
  }

  /** USD of {@code u} priced at the tier of a response of {@code context} tokens. */
  public double usd(TokenUsage u, long context) {
    long oneHour = Math.min(u.cacheCreation1h(), u.cacheCreation());
    double micro = u.input() * input.perMillion(context)
        + u.output() * output.perMillion(context)
        + (u.cacheCreation() - oneHour) * or(cacheWrite, input).perMillion(context)
        + oneHour * or(cacheWrite1h, or(cacheWrite, input)).perMillion(context)
        + u.cacheRead() * or(cacheRead, input).perMillion(context);
    return micro / 1_000_000d;
  }

  private static Price or(Price p, Price fallback) {
    return p != null ? p : fallback;
  }
}
