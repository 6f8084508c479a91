package dev.agentdesk.transcripts;

/** How {@code usage} totals are grouped. Days, weeks, months and blocks follow the query's time zone. */
public enum UsageGrouping {
  DAY,
  /** ISO weeks (Monday first), keyed {@code 2026-W48} by their week-based year. */
  WEEK,
  /** Calendar months, keyed {@code 2026-11}. */
  MONTH,
  SESSION,
  MODEL,
  PROVIDER,
  PROJECT,
  /** One row per counted response (the message whose usage copy counts); meant for one session. */
  RESPONSE,
  /** Five-hour usage windows, as Claude's work: see {@link UsageBlock}. */
  BLOCK
}
