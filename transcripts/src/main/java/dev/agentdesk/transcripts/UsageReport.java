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
 *     for every other grouping), whole whatever the filters; each row's own share is {@link UsageRow#recordedUsd}
 * @param breakdown by row key, the row's per-model rows in model order, when the query asked for a
 *     breakdown (empty otherwise); each row's models sum to the row
 * @param blocks for a report {@linkplain UsageGrouping#BLOCK by block}, the blocks in the order of
 *     {@code rows} (the row of a block is keyed by its start); empty for every other grouping
 * @param mode which cost the rows' {@code costUsd} is
 */
public record UsageReport(UsageGrouping by, List<UsageRow> rows, UsageRow total, String pricesSource,
    String pricesVersion, String pricesPublished, long rejectedResponses, String newestDay, List<String> warnings,
    Map<String, Double> recordedCostUsd, Map<String, List<UsageRow>> breakdown, List<UsageBlock> blocks,
    CostMode mode) {
  public UsageReport {
    rows = List.copyOf(rows);
    warnings = List.copyOf(warnings);
    recordedCostUsd = Map.copyOf(recordedCostUsd);
    breakdown = Map.copyOf(breakdown);
    blocks = List.copyOf(blocks);
  }

  /** A report without breakdown or blocks. */
  public UsageReport(UsageGrouping by, List<UsageRow> rows, UsageRow total, String pricesSource,
      String pricesVersion, String pricesPublished, long rejectedResponses, String newestDay, List<String> warnings,
      Map<String, Double> recordedCostUsd) {
    this(by, rows, total, pricesSource, pricesVersion, pricesPublished, rejectedResponses, newestDay, warnings,
        recordedCostUsd, Map.of(), List.of(), CostMode.CALCULATE);
  }

  /**
   * Whether a row's {@code costUsd} is a figure to show: always in {@link CostMode#DISPLAY} (0 where
   * nothing was recorded), else unless every response of the row lacked a price.
   */
  public boolean costShown(UsageRow r) {
    return mode == CostMode.DISPLAY || r.responses() == 0 || r.hasCost();
  }

  /** The block active at {@code now}, if any. */
  public java.util.Optional<UsageBlock> activeBlock(java.time.Instant now) {
    return blocks.stream().filter(b -> b.activeAt(now)).findFirst();
  }

  /** The recorded costs of the rows summed, or null when no row has one. */
  public Double recordedCostTotal() {
    return recordedCostUsd.isEmpty() ? null : recordedCostUsd.values().stream().mapToDouble(Double::doubleValue).sum();
  }
}
