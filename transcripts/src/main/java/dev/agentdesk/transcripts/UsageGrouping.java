package dev.agentdesk.transcripts;

/** How {@code usage} totals are grouped. */
public enum UsageGrouping {
  DAY,
  SESSION,
  MODEL,
  PROVIDER,
  PROJECT,
  /** One row per counted response (the message whose usage copy counts); meant for one session. */
  RESPONSE
}
