package dev.agentdesk.transcripts;

import dev.agentdesk.transcripts.records.TokenUsage;
import java.util.List;

/**
 * Totals of one group; {@code responses} counts model responses, each once. {@code costUsd} is the
 * cost of the priced responses; {@code unpricedResponses} (with tokens) had a model the price table
 * does not know, named in {@code unpricedModels}: their tokens are in {@code usage}, their cost is not.
 */
public record UsageRow(String key, long responses, TokenUsage usage, double costUsd, long unpricedResponses,
    List<String> unpricedModels) {

  public UsageRow {
    unpricedModels = List.copyOf(unpricedModels);
  }

  /** Tokens only (no prices applied). */
  public UsageRow(String key, long responses, TokenUsage usage) {
    this(key, responses, usage, 0, 0, List.of());
  }

  /** Whether every response of the group with tokens was priced. */
  public boolean fullyPriced() {
    return unpricedResponses == 0;
  }

  /** Whether some response of the group was priced (a group of unpriced models only has no cost). */
  public boolean hasCost() {
    return unpricedResponses < responses;
  }
}
