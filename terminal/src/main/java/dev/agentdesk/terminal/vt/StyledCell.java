package dev.agentdesk.terminal.vt;

/**
 * One visible character with its style. A double-width character is one cell of width 2 (its
 * right half is not listed); blank cells are listed with text " ".
 *
 * @param col zero-based column of the cell's left edge
 * @param text the character, with any combining marks
 * @param width 1 or 2 columns
 * @param style its rendition
 */
public record StyledCell(int col, String text, int width, CellStyle style) {}
