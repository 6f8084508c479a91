package dev.agentdesk.terminal.parser;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Gemini CLI's dialogs (0.61: the trust dialog, tool approvals, the usage-limit dialog) are drawn
 * in a rounded box ({@code │ … │}) with {@code ●} on the selected option, where other agents put
 * the menu on bare rows with {@code ❯}; its tool calls and summaries are framed too. The parser
 * reads Gemini's screens through this view: each row without its outer frame, {@code ●} before an
 * option number as the cursor. Rows keep their places, so the cursor and the chrome cut still apply.
 */
final class GeminiScreens {
  /** An outer frame row: its border, one pad column, the text, padding and the closing border. */
  private static final Pattern FRAMED = Pattern.compile("^\\s?[│┃] ?(.*?)\\s*[│┃]\\s*$");
  /** The selected option's glyph before its number. */
  private static final Pattern SELECTED = Pattern.compile("^(\\s*)●(\\s+\\d{1,2}[.)]\\s)");

  /**
   * Dialog heads that are titles without a question mark: the usage-limit dialog of a hard 429
   * ("Usage limit reached for gemini-2.5-flash." over "1. Keep trying / 2. Stop").
   */
  static final Pattern DIALOG_TITLE = Pattern.compile("^Usage limit reached for \\S+");

  private GeminiScreens() {}

  /** {@code screen} with dialog frames taken off and {@code ●} read as the cursor marker. */
  static ScreenView unboxed(ScreenView screen) {
    List<String> rows = new ArrayList<>(screen.rowCount());
    boolean any = false;
    for (String row : screen.rows()) {
      String r = unboxed(row);
      any |= !r.equals(row);
      rows.add(r);
    }
    if (!any) {
      return screen;
    }
    BitSet wrapped = new BitSet();
    for (int i = 0; i < screen.rowCount(); i++) {
      wrapped.set(i, screen.isWrapped(i));
    }
    return new ScreenView(rows, wrapped, screen.cols(), screen.cursorRow(), screen.cursorCol(), screen.altScreen());
  }

  /** {@link #unboxed(ScreenView)} for the rows a chunk changed. */
  static List<RowChange> unboxed(List<RowChange> changed) {
    List<RowChange> out = new ArrayList<>(changed.size());
    for (RowChange c : changed) {
      out.add(new RowChange(c.row(), unboxed(c.text())));
    }
    return out;
  }

  private static String unboxed(String row) {
    String r = row;
    Matcher f = FRAMED.matcher(r);
    if (f.matches()) {
      r = f.group(1);
    }
    Matcher s = SELECTED.matcher(r);
    if (s.find()) {
      r = s.group(1) + "❯" + s.group(2) + r.substring(s.end());
    }
    return r;
  }

  /** The lowest row above {@code end} whose text is {@code title}, or -1. */
  static int titleRow(ScreenView screen, String title, int end) {
    for (int r = Math.min(end, screen.rowCount()) - 1; r >= 0; r--) {
      if (screen.row(r).strip().equals(title)) {
        return r;
      }
    }
    return -1;
  }

  /** Rows that must line up for a redraw to count as a scroll. */
  private static final int SCROLL_EVIDENCE = 3;

  /**
   * How many rows Gemini's history moved up from {@code before} to {@code now}, or 0: Gemini's
   * history scrolls as a turn starts (the prompt joins it) and as output grows past the screen.
   */
  static int scrolledBy(ScreenView before, ScreenView now, List<RowChange> changed) {
    if (before == null || changed.size() < SCROLL_EVIDENCE) {
      return 0;
    }
    int n = now.rowCount();
    int bestShift = 0;
    int bestMatches = 0;
    for (int k = 1; k < n; k++) {
      int matches = 0;
      for (int i = 0; i + k < before.rowCount() && i < n; i++) {
        String row = now.row(i);
        if (!row.isBlank() && row.equals(before.row(i + k))) {
          matches++;
        }
      }
      if (matches > bestMatches) {
        bestMatches = matches;
        bestShift = k;
      }
    }
    return bestMatches < SCROLL_EVIDENCE ? 0 : bestShift;
  }

  /**
   * {@code changed} without the rows that only moved up by {@code shift} ({@link #scrolledBy}): the
   * engine reports every moved row as changed, and a limit or an error read again from its moved
   * row would be reported a second time in the new turn; a new one (even with the same text) is on
   * a row whose earlier content was different, so it stays.
   */
  static List<RowChange> withoutScrolled(ScreenView before, List<RowChange> changed, int shift) {
    if (shift == 0) {
      return changed;
    }
    List<RowChange> out = new ArrayList<>(changed.size());
    for (RowChange c : changed) {
      if (c.text().isBlank() || !c.text().equals(before.row(c.row() + shift))) {
        out.add(c);
      }
    }
    return out;
  }
}
