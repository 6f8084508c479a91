package dev.agentdesk.terminal.parser;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Claude Code's menus without digits: a column of options, one with the {@code ❯} cursor marker
 * ({@code " ❯ No, exit" / "   Yes, I trust this folder"}; the theme picker marks the current
 * choice with {@code ✔} and indents the others past it). They answer to the arrow keys and Enter,
 * not to digits, so the prompt is reported with {@code numbered = false} and its options numbered
 * 1..n in screen order.
 *
 * <p>What makes a block a menu: the marker is indented (a submitted prompt echoed in the
 * conversation starts at column 0), two to twelve option rows follow each other without a blank,
 * the block ends at a blank row, a rule or the content's end, and a title sits within six rows above
 * (a question, or a "Choose …"-style line). A footer ("Esc to cancel") is read when there is one.
 */
final class CursorMenuDetector {
  private static final Pattern MARKED = Pattern.compile("^( +)❯ (\\S.*?)\\s*$");
  private static final Pattern FOOTER_ESC = Pattern.compile("(?i)\\besc(?:ape)? to (\\w+)");
  private static final Pattern FOOTER_TAB = Pattern.compile("(?i)\\btab to (\\w+)");
  private static final Pattern TITLE_VERB = Pattern.compile(
      "(?i)^(?:choose|select|pick|do you want|would you like|confirm|allow)\\b");
  private static final Pattern DESTRUCTIVE = Pattern.compile(
      "(?i)^(?:no|cancel|reject|abort|deny|exit)\\b|^(?:don't|don’t|do not)\\b");
  private static final int MAX_OPTIONS = 12;
  private static final int MAX_LABEL = 100;
  private static final int TITLE_REACH = 6;
  private static final int FOOTER_REACH = 4;

  private CursorMenuDetector() {}

  /** Cheap test before the scan: a row holding the cursor marker. */
  static boolean mayBeOption(String row) {
    return row.indexOf('❯') > 0;
  }

  /** The lowest cursor menu on rows {@code [0, end)}. */
  static ChoicePromptDetector.Detection detect(ScreenView screen, int end, boolean settled) {
    for (int r = end - 1; r >= 0; r--) {
      String row = screen.row(r);
      if (!mayBeOption(row)) {
        continue;
      }
      Matcher m = MARKED.matcher(row);
      if (!m.matches()) {
        continue;
      }
      ChoicePromptDetector.Detection d = around(screen, r, m.group(1).length() + 2, end, settled);
      if (d != ChoicePromptDetector.Detection.NONE) {
        return d;
      }
    }
    return ChoicePromptDetector.Detection.NONE;
  }

  private static ChoicePromptDetector.Detection around(ScreenView screen, int marked, int textCol, int end,
      boolean settled) {
    int first = marked;
    while (first - 1 >= 0 && sibling(screen.row(first - 1), textCol)) {
      first--;
    }
    int last = marked;
    while (last + 1 < end && sibling(screen.row(last + 1), textCol)) {
      last++;
    }
    int count = last - first + 1;
    if (count < 2 || count > MAX_OPTIONS) {
      return ChoicePromptDetector.Detection.NONE;
    }
    if (last + 1 < end && !screen.row(last + 1).isBlank() && !ChoicePromptDetector.isRule(screen.row(last + 1))) {
      return ChoicePromptDetector.Detection.NONE;
    }
    String title = title(screen, first);
    if (title == null) {
      return ChoicePromptDetector.Detection.NONE;
    }
    List<ParsedEvent.ChoiceOption> options = new ArrayList<>(count);
    for (int r = first; r <= last; r++) {
      String label = screen.row(r).strip();
      boolean highlighted = r == marked;
      if (highlighted) {
        label = label.substring(1).strip();
      }
      if (label.startsWith("✔")) {
        label = label.substring(1).strip(); // the current value of a setting
      }
      if (label.isEmpty() || label.length() > MAX_LABEL) {
        return ChoicePromptDetector.Detection.NONE;
      }
      options.add(new ParsedEvent.ChoiceOption(r - first + 1, label, highlighted, DESTRUCTIVE.matcher(label).find(),
          null));
    }
    String dismiss = null;
    String amend = null;
    int lastRow = last;
    for (int r = last + 1; r < Math.min(screen.rowCount(), last + 1 + FOOTER_REACH); r++) {
      String row = screen.row(r);
      if (!row.isBlank()) {
        lastRow = r;
      }
      Matcher e = FOOTER_ESC.matcher(row);
      if (dismiss == null && e.find()) {
        dismiss = e.group(1).toLowerCase(Locale.ROOT);
      }
      Matcher t = FOOTER_TAB.matcher(row);
      if (amend == null && t.find()) {
        amend = t.group(1).toLowerCase(Locale.ROOT);
      }
    }
    if (!settled && screen.cursorRow() >= first - 1 && screen.cursorRow() <= Math.max(lastRow, last + FOOTER_REACH)) {
      return ChoicePromptDetector.Detection.DRAWING;
    }
    return new ChoicePromptDetector.Detection(new ParsedEvent.ChoicePrompt(title, options, dismiss, amend, false), false);
  }

  /** An unmarked option row of the column whose text starts at {@code textCol} (or two further, past a ✔). */
  private static boolean sibling(String row, int textCol) {
    if (row.isBlank() || ChoicePromptDetector.isRule(row)) {
      return false;
    }
    int indent = 0;
    while (indent < row.length() && row.charAt(indent) == ' ') {
      indent++;
    }
    if (indent < textCol || indent > textCol + 2) {
      return false;
    }
    char c = row.charAt(indent);
    return c != '❯' && !ChoicePromptDetector.looksLikeOption(row);
  }

  /** The nearest question (up to its {@code ?}) or "Choose …" line above the options, or null. */
  private static String title(ScreenView screen, int firstOption) {
    int seen = 0;
    for (int r = firstOption - 1; r >= 0 && seen < TITLE_REACH; r--) {
      String t = screen.row(r).strip().replaceAll("^[│┃]\\s*|\\s*[│┃]$", "").strip();
      if (t.isEmpty() || ChoicePromptDetector.isRule(t)) {
        continue;
      }
      seen++;
      int q = questionEnd(t);
      if (q > 0) {
        return t.substring(0, q);
      }
      if (TITLE_VERB.matcher(t).find()) {
        return t;
      }
    }
    return null;
  }

  /** The end (exclusive) of the first sentence ending in {@code ?} ("… you trust? (Like …"), or -1. */
  private static int questionEnd(String t) {
    for (int i = t.indexOf('?'); i >= 0; i = t.indexOf('?', i + 1)) {
      if (i + 1 == t.length() || t.charAt(i + 1) == ' ') {
        return i > 3 ? i + 1 : -1;
      }
    }
    return -1;
  }
}
