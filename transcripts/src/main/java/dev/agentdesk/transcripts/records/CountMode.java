package dev.agentdesk.transcripts.records;

/**
 * Whether a {@link SessionRecord} describes a whole session ({@code TOTAL}: the stream started at
 * the beginning of the file) or only what an incremental read added ({@code DELTA}).
 */
public enum CountMode {
  TOTAL,
  DELTA
}
