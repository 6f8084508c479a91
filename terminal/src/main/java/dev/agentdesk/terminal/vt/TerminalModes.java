package dev.agentdesk.terminal.vt;

/**
 * The terminal modes an embedder may need (to encode keys, paste, or decide when to redraw).
 *
 * @param autowrap DECAWM (?7)
 * @param originMode DECOM (?6)
 * @param insertMode IRM (4)
 * @param newlineMode LNM (20): line feed also returns the carriage
 * @param cursorVisible DECTCEM (?25)
 * @param bracketedPaste ?2004
 * @param applicationCursorKeys DECCKM (?1)
 * @param applicationKeypad DECKPAM / ?66
 * @param synchronizedOutput ?2026: the program is drawing a frame; changed rows are held back
 * @param mouseTracking 0 when off, else the DECSET number that turned it on (9, 1000, 1002, 1003)
 * @param sgrMouse ?1006 mouse encoding
 * @param altScreen the alternate screen is active
 */
public record TerminalModes(
    boolean autowrap,
    boolean originMode,
    boolean insertMode,
    boolean newlineMode,
    boolean cursorVisible,
    boolean bracketedPaste,
    boolean applicationCursorKeys,
    boolean applicationKeypad,
    boolean synchronizedOutput,
    int mouseTracking,
    boolean sgrMouse,
    boolean altScreen) {}
