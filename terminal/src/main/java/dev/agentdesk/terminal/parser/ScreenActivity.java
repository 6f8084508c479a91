package dev.agentdesk.terminal.parser;

/**
 * Reads whether an agent's screen shows a turn in progress. WORKING needs a live status line in
 * the chat content above the chrome: Claude's spinner glyph, an active verb ending in an ellipsis
 * and parenthesised progress (this is what reopens a turn that a blocking Stop hook continued); a
 * Codex "Working (… esc to interrupt)" line that sits in the bottom pane, separated from the
 * composer by a spacer row — the same text glued directly onto the composer is a line of history.
 * Completed-duration summaries ("✻ Sautéed for 1m 25s") and empty composers are COMPLETED.
 */
public enum ScreenActivity {
  WORKING,
  COMPLETED;

  /** How far above the chrome a live status line may sit. */
  private static final int STATUS_REACH = 8;

  /** Classifies a rendered screen. */
  public static ScreenActivity read(Agent agent, ScreenView screen) {
    int end = ChromeCutoff.contentEnd(agent, screen);
    int seen = 0;
    for (int i = end - 1; i >= 0 && seen < STATUS_REACH; i--) {
      String row = screen.row(i);
      if (row.isBlank()) {
        continue;
      }
      seen++;
      ParsedEvent.StatusLine s = StatusLineRules.match(row);
      if (s == null) {
        continue;
      }
      boolean live = switch (agent) {
        // The composer is row `end`; a live Codex indicator leaves a spacer row above it.
        case CODEX -> end < screen.rowCount() && i < end - 1;
        case CLAUDE -> s.timeInfo() != null || s.tokenInfo() != null || s.fullLine().contains("esc to interrupt");
        default -> true;
      };
      if (live) {
        return WORKING;
      }
    }
    return COMPLETED;
  }
}
