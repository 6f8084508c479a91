package dev.agentdesk.transcripts;

import java.util.List;

/**
 * A usage report: rows in key order, their total, the price table that priced them, and warnings
 * (unpriced models, damaged counts left out, a price table older than the transcripts) that a
 * caller shows beside the figures.
 *
 * @param rejectedResponses responses whose token counts were negative or absurd: in no row
 * @param newestDay the latest day with usage ({@code YYYY-MM-DD}), or null
 */
public record UsageReport(UsageGrouping by, List<UsageRow> rows, UsageRow total, String pricesSource,
    String pricesVersion, String pricesPublished, long rejectedResponses, String newestDay, List<String> warnings) {
  public UsageReport {
    rows = List.copyOf(rows);
    warnings = List.copyOf(warnings);
  }
}
