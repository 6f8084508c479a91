package dev.agentdesk.transcripts;

/** How {@code usage} totals are grouped. */
public enum UsageGrouping {
  DAY,
  SESSION,
  MODEL,
  PROVIDER
}
