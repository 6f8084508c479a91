package dev.agentdesk.transcripts.records;

/**
 * Whether a message belongs in session detail. Hidden messages are transport context (environment
 * envelopes, reminders, usage carriers); they are stored but never shown. This is separate from
 * {@code is_meta}: visible system evidence stays visible as a meta entry.
 */
public enum Visibility {
  VISIBLE,
  HIDDEN
}
