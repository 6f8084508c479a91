package dev.agentdesk.terminal.parser;

import java.util.regex.Pattern;

/**
 * Rendered pickers that say how to answer them ("Enter to select · ↑/↓ to navigate"): the agent is
 * waiting even when the options are not a numbered menu. The prompt text is the nearest
 * {@code ?} line above the footer, else the footer itself.
 */
final class PickerPrompts {
  /**
   * A key-hint footer: the hint opens the row (after box-drawing and bullet glyphs) or follows
   * another hint's separator ("Esc to cancel · Enter to select"). A hint inside a sentence ("the
   * footer reads Enter to select"), a grep hit or a quoted string is text about a picker. "Press
   * Enter to continue" pauses rather than asks, so it is not a picker.
   */
  private static final Pattern FOOTER = Pattern.compile(
      "(?i)(?:^[\\s│┃╭╰|>❯›•·]*|[·|•]\\s*|\\s{2,})(?:(?:press )?enter to (?:select|confirm|choose|submit)|press enter to (?:select|confirm)|"
          + "[↑↓]/?[↑↓]? to (?:navigate|select|choose))\\b");
  private static final int BOTTOM_ROWS = 15;

  private PickerPrompts() {}

  /** Cheap test before the footer regex: every footer tells what a key does "to" do. */
  static boolean mayBeFooter(String row) {
    return row.contains(" to select") || row.contains(" to navigate") || row.contains(" to confirm")
        || row.contains(" to choose") || row.contains(" to submit") || row.contains(" to continue");
  }

  private static final Pattern PAUSE = Pattern.compile("(?i)^press enter to continue[.…]*$");

  /**
   * A full-screen pause that waits for Enter (Claude's first-run "Security notes … Press Enter to
   * continue"): the hint alone on the last non-blank row. The text is the nearest heading above
   * that ends in a colon, then the hint ("Security notes: Press Enter to continue"); null when the
   * screen shows no such pause. A sentence quoting the hint is not alone on its row.
   */
  static String pause(ScreenView screen) {
    int n = screen.rowCount();
    while (n > 0 && screen.row(n - 1).isBlank()) {
      n--;
    }
    if (n == 0) {
      return null;
    }
    String hint = screen.row(n - 1).strip();
    if (!PAUSE.matcher(hint).matches()) {
      return null;
    }
    for (int r = n - 2; r >= Math.max(0, n - 1 - BOTTOM_ROWS); r--) {
      String t = screen.row(r).strip();
      if (t.endsWith(":") && t.length() > 1) {
        return t + " " + hint;
      }
    }
    return hint;
  }

  /** The picker's prompt text, or null when no picker footer is among the last non-blank rows. */
  static String prompt(ScreenView screen) {
    int n = screen.rowCount();
    while (n > 0 && screen.row(n - 1).isBlank()) {
      n--;
    }
    for (int f = n - 1; f >= Math.max(0, n - BOTTOM_ROWS); f--) {
      String row = screen.row(f);
      if (row.isBlank() || !FOOTER.matcher(row).find() || LineGuards.isDiffOrCodeContext(row, row.strip())) {
        continue;
      }
      for (int r = f - 1; r >= Math.max(0, f - BOTTOM_ROWS); r--) {
        String t = screen.row(r).strip().replaceFirst("^[│┃●⏺•◦☐☒✔]\\s*", "").replaceFirst("\\s*[│┃]$", "");
        if (t.endsWith("?") && t.length() > 3) {
          return t;
        }
      }
      return row.strip();
    }
    return null;
  }
}
