package dev.agentdesk.terminal.vt;

/**
 * A row of the active screen whose text changed while a chunk was processed.
 *
 * @param row zero-based row on the visible screen
 * @param text the row's whole text after the chunk, right-trimmed
 */
public record ChangedRow(int row, String text) {}
