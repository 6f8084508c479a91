package dev.agentdesk.terminal.parser;

import java.util.regex.Pattern;

/**
 * Finds where an agent's bottom chrome (input box, footer, status bar, mode line) starts, so the
 * rendered-row parser only sees chat content. Each agent's composer is recognised by its prompt
 * glyph at the bottom of the screen:
 *
 * <ul>
 *   <li>Claude Code and Copilot CLI: a {@code ❯}/{@code >} composer row directly under a horizontal
 *       rule ({@code ────}), or inside a rounded box ({@code ╭─…─╮ │ > … │});</li>
 *   <li>Codex: the lowest {@code ›} (or placeholder {@code »}) row near the bottom (the history also shows submitted
 *       requests with {@code ›}, so only the last one within the bottom rows counts);</li>
 *   <li>Gemini CLI and OpenCode: a rounded or heavy box whose first inner row is the prompt; Gemini CLI 0.61
 *       draws its {@code >} composer under a rule instead, with a mode line ("Shift+Tab to accept edits") between;</li>
 *   <li>Aider: the {@code >}/{@code architect>} prompt_toolkit line; Goose: {@code ( O)>}.</li>
 *   <li>pi: its editor between two full rules, the folder and token footer under it (the editor
 *       row may hold any typed text, so the rules find it, not the row).</li>
 * </ul>
 *
 * Everything from the composer's top border (or the composer row itself) down is chrome. With no
 * recognisable composer, or for {@link Agent#NONE}, nothing is cut.
 */
public final class ChromeCutoff {
  /** The composer sits in the bottom rows; deeper matches are history, not chrome. */
  private static final int BOTTOM_WINDOW = 12;

  private static final Pattern RULE = Pattern.compile("^\\s*[─━═]{8,}.*$");
  private static final Pattern BOX_TOP = Pattern.compile("^\\s*[╭┌┏][─━]{4,}.*$");
  private static final Pattern CLAUDE_COMPOSER = Pattern.compile("^\\s*(?:[│┃]\\s*)?[❯>](?:\\s|$).*");
  private static final Pattern CODEX_COMPOSER = Pattern.compile("^\\s?[›»](?:\\s|$).*");
  private static final Pattern BOX_PROMPT = Pattern.compile("^\\s*[│┃]\\s*(?:[>!*❯]|Type your message).*");
  private static final Pattern GEMINI_COMPOSER = Pattern.compile("^\\s*>(?:\\s|$).*");
  private static final Pattern AIDER_PROMPT = Pattern.compile("^(?:[\\w-]+ )?(?:multi )?>\\s.*|^(?:[\\w-]+ )?>$");
  private static final Pattern GOOSE_PROMPT = Pattern.compile("^\\(\\s*[O ]?\\s*\\)>.*");

  private ChromeCutoff() {}

  /** Index of the first chrome row; {@code screen.rowCount()} when there is none. */
  public static int contentEnd(Agent agent, ScreenView screen) {
    int n = screen.rowCount();
    int last = n - 1;
    while (last >= 0 && screen.row(last).isBlank()) {
      last--;
    }
    if (last < 0 || agent == Agent.NONE) {
      return n;
    }
    int floor = Math.max(0, last - BOTTOM_WINDOW);
    if (agent == Agent.PI) {
      return piEditor(screen, last, floor);
    }
    for (int i = last; i >= floor; i--) {
      String row = screen.row(i);
      if (!mayBeComposer(row)) {
        continue;
      }
      int cut = switch (agent) {
        case CLAUDE, COPILOT -> ruledOrBoxed(screen, i, CLAUDE_COMPOSER);
        case CODEX -> CODEX_COMPOSER.matcher(row).matches() ? i : -1;
        case GEMINI -> gemini(screen, i);
        case OPENCODE -> boxed(screen, i);
        case AIDER -> AIDER_PROMPT.matcher(row).matches() ? i : -1;
        case PI -> -1;
        case GOOSE -> GOOSE_PROMPT.matcher(row).matches() ? i : -1;
        case NONE -> -1;
      };
      if (cut >= 0) {
        return cut;
      }
    }
    return n;
  }

  /** The upper of the lowest two rules that enclose pi's editor, or the row count when there are not two. */
  private static int piEditor(ScreenView s, int last, int floor) {
    int lower = -1;
    for (int i = last; i >= floor; i--) {
      if (!RULE.matcher(s.row(i)).matches()) {
        continue;
      }
      if (lower < 0) {
        lower = i;
      } else {
        return i;
      }
    }
    return s.rowCount();
  }

  /** Every composer row starts (after blanks) with one of these; most rows are skipped without a regex. */
  private static boolean mayBeComposer(String row) {
    int i = 0;
    while (i < row.length() && row.charAt(i) == ' ') {
      i++;
    }
    if (i == row.length()) {
      return false;
    }
    char c = row.charAt(i);
    return "❯>›»│┃(".indexOf(c) >= 0 || Character.isLetter(c) && row.indexOf('>') > 0;
  }

  private static int ruledOrBoxed(ScreenView s, int i, Pattern composer) {
    if (!composer.matcher(s.row(i)).matches()) {
      return -1;
    }
    if (i > 0 && RULE.matcher(s.row(i - 1)).matches()) {
      return i - 1;
    }
    return boxed(s, i);
  }

  /** Gemini CLI: the boxed composer of older releases, or 0.61's {@code >} row one or two rows under a rule. */
  private static int gemini(ScreenView s, int i) {
    int boxed = boxed(s, i);
    if (boxed >= 0 || !GEMINI_COMPOSER.matcher(s.row(i)).matches()) {
      return boxed;
    }
    for (int r = i - 1; r >= Math.max(0, i - 2); r--) {
      if (RULE.matcher(s.row(r)).matches()) {
        return r;
      }
    }
    return -1;
  }

  private static int boxed(ScreenView s, int i) {
    if (BOX_PROMPT.matcher(s.row(i)).matches() && i > 0 && BOX_TOP.matcher(s.row(i - 1)).matches()) {
      return i - 1;
    }
    return -1;
  }
}
