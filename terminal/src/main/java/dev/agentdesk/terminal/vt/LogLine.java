package dev.agentdesk.terminal.vt;

/**
 * A primary-screen row that scrolled off the top and is now part of the durable log.
 *
 * @param seq sequence number: 0 for the first row ever logged, +1 for each row after it
 * @param text the row's text, right-trimmed
 * @param wrapped true when this row continues the previous one (it was reached by autowrap)
 */
public record LogLine(long seq, String text, boolean wrapped) {}
