package dev.agentdesk.transcripts;

import java.util.List;
import java.util.Map;

/**
 * A usage report: rows in key order, their total, the price table that priced them, and warnings
 * (unpriced models, damaged counts left out, a price table older than the transcripts) that a
 * caller shows beside the figures.
 *
 * @param rejectedResponses responses whose token counts were negative or absurd: in no row
 * @param newestDay the latest day with usage ({@code YYYY-MM-DD}), or null
 * @param recordedCostUsd by session id, the cost the agent itself recorded for the session, for the
 *     rows of a report {@linkplain UsageGrouping#SESSION by session} whose agent records one (empty
 *     for every other grouping): shown beside the calculated cost, never summed into it
 */
public record UsageReport(UsageGrouping by, List<UsageRow> rows, UsageRow total, String pricesSource,
    String pricesVersion, String pricesPublished, long rejectedResponses, String newestDay, List<String> warnings,
    Map<String, Double> recordedCostUsd) {
  public UsageReport {
    rows = List.copyOf(rows);
    warnings = List.copyOf(warnings);
    recordedCostUsd = Map.copyOf(recordedCostUsd);
  }

  /** The recorded costs of the rows summed, or null when no row has one. */
  public Double recordedCostTotal() {
    return recordedCostUsd.isEmpty() ? null : recordedCostUsd.values().stream().mapToDouble(Double::doubleValue).sum();
  }

  /**
   * This report with only the rows {@code keep} accepts, and a total that is their sum: a total
   * always adds up the rows shown, never what a filter left out.
   */
  public UsageReport keep(java.util.function.Predicate<UsageRow> keep) {
    List<UsageRow> kept = rows.stream().filter(keep).toList();
    long responses = 0;
    long unpriced = 0;
    double cost = 0;
    dev.agentdesk.transcripts.records.TokenUsage usage = dev.agentdesk.transcripts.records.TokenUsage.ZERO;
    java.util.Set<String> unpricedModels = new java.util.TreeSet<>();
    for (UsageRow r : kept) {
      responses += r.responses();
      unpriced += r.unpricedResponses();
      cost += r.costUsd();
      usage = usage.plus(r.usage());
      unpricedModels.addAll(r.unpricedModels());
    }
    UsageRow sum = new UsageRow(total.key(), responses, usage, cost, unpriced, List.copyOf(unpricedModels));
    java.util.Set<String> keys = new java.util.HashSet<>();
    kept.forEach(r -> keys.add(r.key()));
    Map<String, Double> recorded = new java.util.HashMap<>(recordedCostUsd);
    recorded.keySet().retainAll(keys);
    return new UsageReport(by, kept, sum, pricesSource, pricesVersion, pricesPublished, rejectedResponses, newestDay,
        warnings, recorded);
  }
}
