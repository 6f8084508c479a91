package dev.agentdesk.transcripts.cost;

import java.util.List;

/**
 * One kind of token's price in USD per million tokens: a base price, and tier prices that apply to
 * the whole response once its context (input + cache read + cache write) exceeds a tier's start.
 * That is how the providers bill long contexts (e.g. Claude Sonnet above 200k input tokens).
 */
public record Price(double base, List<Tier> tiers) {
  /** A tier: price per million tokens for a response whose context is larger than {@code start}. */
  public record Tier(long start, double price) {}

  public Price {
    tiers = List.copyOf(tiers);
  }

  public static Price flat(double perMillion) {
    return new Price(perMillion, List.of());
  }

  /** USD per million tokens for a response of {@code context} tokens. */
  public double perMillion(long context) {
    double p = base;
    long best = Long.MIN_VALUE;
    for (Tier t : tiers) {
      if (context > t.start() && t.start() > best) {
        best = t.start();
        p = t.price();
      }
    }
    return p;
  }
}
