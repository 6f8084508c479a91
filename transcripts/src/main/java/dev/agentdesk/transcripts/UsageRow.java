package dev.agentdesk.transcripts;

import dev.agentdesk.transcripts.records.TokenUsage;
import java.util.List;

/**
 * Totals of one group; {@code responses} counts model responses, each once. {@code costUsd} is the
 * cost the query's {@link CostMode} asks for; {@code unpricedResponses} (with tokens) had a model the
 * price table does not know, named in {@code unpricedModels}: their tokens are in {@code usage},
 * their calculated cost is not.
 *
 * @param calculatedUsd the cost calculated from the tokens (of the priced responses)
 * @param recordedUsd the cost the agents recorded for the responses of the group that have one, or
 *     null when none has
 * @param recordedCalculatedUsd the calculated cost of those same responses (0 when none), so that
 *     {@link #differenceUsd} compares like with like
 */
public record UsageRow(String key, long responses, TokenUsage usage, double costUsd, long unpricedResponses,
    List<String> unpricedModels, double calculatedUsd, Double recordedUsd, double recordedCalculatedUsd) {

  public UsageRow {
    unpricedModels = List.copyOf(unpricedModels);
  }

  /** A row of calculated cost only. */
  public UsageRow(String key, long responses, TokenUsage usage, double costUsd, long unpricedResponses,
      List<String> unpricedModels) {
    this(key, responses, usage, costUsd, unpricedResponses, unpricedModels, costUsd, null, 0);
  }

  /** Recorded minus calculated cost of the responses that have a recorded cost, or null when none has. */
  public Double differenceUsd() {
    return recordedUsd == null ? null : recordedUsd - recordedCalculatedUsd;
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
