package dev.agentdesk.terminal.parser;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Numbered confirmation menus ("Do you want to proceed? ❯ 1. Yes  2. No … Esc to cancel"). The
 * options must be numbered 1..n without gaps (n ≥ 2); a title must sit above them (a question or
 * a confirmation verb); and the block must look interactive — a footer key ("Esc to cancel") or a
 * cursor marker on one option. Markdown and code lists have neither title nor footer.
 */
final class ChoicePromptDetector {
  private static final Pattern OPTION = Pattern.compile("^\\s*(?:([❯›>])\\s*)?(\\d{1,2})[.)]\\s+(.+?)\\s*$");
  private static final Pattern FOOTER_ESC = Pattern.compile("(?i)\\besc(?:ape)? to (\\w+)");
  private static final Pattern FOOTER_TAB = Pattern.compile("(?i)\\btab to (\\w+)");
  private static final Pattern TITLE_VERB = Pattern.compile(
      "(?i)^(?:do you want|would you like|proceed|continue|should i|confirm|apply|allow)\\b");
  private static final Pattern HINT = Pattern.compile(
      "(?i)^(.*?)\\s*\\(((?:esc|tab|enter|shift\\+\\w+|ctrl\\+\\w+|alt\\+\\w+|[a-z]))\\)$");
  private static final Pattern DESTRUCTIVE = Pattern.compile(
      "(?i)^(?:no|cancel|reject|abort|deny)\\b|^(?:don't|don’t|do not)\\b");
  /** How far above the options a title may sit (Codex shows the command between title and options). */
  private static final int TITLE_REACH = 6;
  private static final int FOOTER_REACH = 4;
  /** Codex's details between its question and the options (reason, environment, a wrapped command) may run longer. */
  private static final int CODEX_TITLE_REACH = 12;
  /** A paragraph opening with a short question followed by more text ("Trust this folder? Codex can …"). */
  private static final Pattern LEADING_QUESTION = Pattern.compile("^([A-Z][^?.!]{0,80}\\?)\\s+\\S");

  private ChoicePromptDetector() {}

  /** What a look at the screen found: a prompt (or null), or a prompt still being drawn. */
  record Detection(ParsedEvent.ChoicePrompt prompt, boolean stillDrawing) {
    static final Detection NONE = new Detection(null, false);
    static final Detection DRAWING = new Detection(null, true);
  }

  /** The lowest choice prompt on screen rows {@code [0, end)}, or null; a prompt being drawn counts. */
  static ParsedEvent.ChoicePrompt detect(ScreenView screen, int end) {
    return detect(screen, end, true).prompt();
  }

  /**
   * As {@link #detect(ScreenView, int, boolean)}, for an agent: Claude draws an option's
   * description on the rows under its label (its question tool), where others wrap a long label,
   * and its menus without digits (theme picker, trust dialog) are cursor menus.
   */
  static Detection detect(ScreenView screen, int end, boolean settled, Agent agent) {
    boolean claude = agent == Agent.CLAUDE;
    if (agent == Agent.GEMINI) {
      Detection d = detect(screen, end, settled, false, GeminiScreens.DIALOG_TITLE);
      // A tool approval drawn above the trust dialog has the keys (the prompt ran behind the dialog).
      int title = d.prompt() == null ? -1 : GeminiScreens.titleRow(screen, d.prompt().title(), end);
      Detection upper = title <= 0 ? Detection.NONE : detect(screen, title, settled, false, GeminiScreens.DIALOG_TITLE);
      return upper.prompt() != null || upper.stillDrawing() ? upper : d;
    }
    Detection d = detect(screen, end, settled, claude, null, agent == Agent.CODEX);
    if (d == Detection.NONE && claude) {
      return CursorMenuDetector.detect(screen, end, settled);
    }
    if (d == Detection.NONE && agent == Agent.OPENCODE) {
      return OpenCodePrompts.detect(screen, end);
    }
    return d;
  }

  static Detection detect(ScreenView screen, int end, boolean settled) {
    return detect(screen, end, settled, false);
  }

  private static Detection detect(ScreenView screen, int end, boolean settled, boolean descriptionsBelow) {
    return detect(screen, end, settled, descriptionsBelow, null, false);
  }

  private static Detection detect(ScreenView screen, int end, boolean settled, boolean descriptionsBelow,
      Pattern titles) {
    return detect(screen, end, settled, descriptionsBelow, titles, false);
  }

  /**
   * The lowest choice prompt, or null. With {@code settled} false a prompt whose rows (title to
   * footer) still hold the cursor is not reported: the program is drawing it, and reporting it
   * half-drawn would emit a second, different prompt a moment later.
   */
  /**
   * {@code titles}: an agent's own dialog heads that are titles without a question mark, or null;
   * {@code codex}: Codex's question and answer rules ({@link #codexTitle}).
   */
  private static Detection detect(ScreenView screen, int end, boolean settled, boolean descriptionsBelow,
      Pattern titles, boolean codex) {
    int i = end - 1;
    while (i >= 0) {
      if (!looksLikeOption(screen.row(i))) {
        i--;
        continue;
      }
      Matcher m = OPTION.matcher(screen.row(i));
      if (!m.matches()) {
        i--;
        continue;
      }
      // i is the last row of a candidate block; walk up over options and their wrapped continuations.
      int blockEnd = i;
      List<int[]> optionRows = new ArrayList<>();
      int j = i;
      while (j >= 0) {
        String row = screen.row(j);
        if (looksLikeOption(row) && OPTION.matcher(row).matches()) {
          optionRows.add(0, new int[] {j});
        } else if (isRule(row) && !optionRows.isEmpty() && j > 0 && optionOrContinuation(screen.row(j - 1))) {
          // Claude's question menu draws a rule before its last option ("4. Chat about this").
        } else if (row.isBlank() || !row.startsWith("   ") || optionRows.isEmpty()) {
          break;
        }
        j--;
      }
      Detection d = build(screen, optionRows, blockEnd, end, settled, descriptionsBelow, titles, codex);
      if (d != Detection.NONE) {
        return d;
      }
      i = j;
    }
    return Detection.NONE;
  }

  private static Detection build(ScreenView screen, List<int[]> optionRows, int blockEnd, int end, boolean settled,
      boolean descriptionsBelow, Pattern titles, boolean codex) {
    if (optionRows.size() < 2) {
      return Detection.NONE;
    }
    List<ParsedEvent.ChoiceOption> options = new ArrayList<>();
    int markers = 0;
    for (int k = 0; k < optionRows.size(); k++) {
      int r = optionRows.get(k)[0];
      Matcher m = OPTION.matcher(screen.row(r));
      if (!m.matches()) {
        return Detection.NONE;
      }
      int index = Integer.parseInt(m.group(2));
      if (index != k + 1) {
        return Detection.NONE;
      }
      StringBuilder label = new StringBuilder(m.group(3));
      StringBuilder description = new StringBuilder();
      int next = k + 1 < optionRows.size() ? optionRows.get(k + 1)[0] : blockEnd + 1;
      for (int c = r + 1; c < next; c++) {
        String more = screen.row(c).strip();
        if (isRule(more)) {
          continue;
        }
        StringBuilder to = descriptionsBelow ? description : label;
        (to.length() == 0 ? to : to.append(' ')).append(more);
      }
      boolean highlighted = m.group(1) != null;
      markers += highlighted ? 1 : 0;
      String text = label.toString().strip();
      String hint = null;
      Matcher h = HINT.matcher(text);
      if (h.matches() && !h.group(1).isBlank()) {
        text = h.group(1).strip();
        hint = h.group(2).toLowerCase(Locale.ROOT);
      }
      options.add(new ParsedEvent.ChoiceOption(index, text, highlighted, DESTRUCTIVE.matcher(text).find(), hint,
          description.length() == 0 ? null : description.toString()));
    }
    String title = codex ? codexTitle(screen, optionRows.get(0)[0]) : null;
    if (title == null) {
      title = title(screen, optionRows.get(0)[0], titles);
    }
    if (title == null) {
      return Detection.NONE;
    }
    String dismiss = null;
    String amend = null;
    int lastRow = blockEnd;
    for (int r = blockEnd + 1; r < Math.min(screen.rowCount(), blockEnd + 1 + FOOTER_REACH); r++) {
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
    if (dismiss == null && amend == null && markers != 1) {
      return Detection.NONE;
    }
    // The footer may still be coming while the cursor is in the rows where it would appear.
    if (!settled && screen.cursorRow() >= optionRows.get(0)[0] - 1
        && screen.cursorRow() <= Math.max(lastRow, blockEnd + FOOTER_REACH)) {
      return Detection.DRAWING;
    }
    // Codex's approval overlay ("Press enter to confirm or esc to cancel") takes digits; its trust
    // screen ("enter continue · esc back") ignores 1 (2 acts at once), so it is answered by ↑/↓ and Enter.
    boolean numbered = !codex || dismiss != null || amend != null;
    return new Detection(new ParsedEvent.ChoicePrompt(title, options, dismiss, amend, numbered), false);
  }

  /**
   * Codex's question: the nearest row above the options that opens with a confirmation verb ("Would
   * you like to run the following command?": the justification "Reason: …?", the environment and the
   * command between it and the options are its details), or a paragraph that opens with a question
   * ("Trust this folder? Codex can read, edit, …": the question is its first sentence). Null when
   * neither is there; the generic title rule applies then.
   */
  private static String codexTitle(ScreenView screen, int firstOption) {
    int seen = 0;
    for (int r = firstOption - 1; r >= 0 && seen < CODEX_TITLE_REACH; r--) {
      String t = screen.row(r).strip();
      if (t.isEmpty()) {
        continue;
      }
      seen++;
      if (TITLE_VERB.matcher(t).find()) {
        return t;
      }
      Matcher q = LEADING_QUESTION.matcher(t);
      if (q.find() && (r == 0 || screen.row(r - 1).isBlank())) {
        return q.group(1);
      }
    }
    return null;
  }

  /** Cheap test before the option regex: optional indent and cursor marker, 1–2 digits, '.' or ')'. */
  static boolean looksLikeOption(String row) {
    int i = 0;
    int n = row.length();
    while (i < n && row.charAt(i) == ' ') {
      i++;
    }
    if (i < n && (row.charAt(i) == '❯' || row.charAt(i) == '›' || row.charAt(i) == '>')) {
      i++;
      while (i < n && row.charAt(i) == ' ') {
        i++;
      }
    }
    int digits = 0;
    while (i < n && digits < 3 && Character.isDigit(row.charAt(i))) {
      i++;
      digits++;
    }
    return digits >= 1 && digits <= 2 && i + 1 < n && (row.charAt(i) == '.' || row.charAt(i) == ')') && row.charAt(i + 1) == ' ';
  }

  /** A horizontal rule row (Claude's separators): only box-drawing dashes. */
  static boolean isRule(String row) {
    String t = row.strip();
    return t.length() >= 3 && t.chars().allMatch(ch -> ch == '─' || ch == '━' || ch == '╌');
  }

  private static boolean optionOrContinuation(String row) {
    return looksLikeOption(row) && OPTION.matcher(row).matches() || !row.isBlank() && row.startsWith("   ");
  }

  private static String title(ScreenView screen, int firstOption, Pattern titles) {
    int seen = 0;
    for (int r = firstOption - 1; r >= 0 && seen < TITLE_REACH; r--) {
      String t = screen.row(r).strip();
      // Box borders around Claude's dialogs are part of the frame, not text.
      t = t.replaceAll("^[│┃]\\s*|\\s*[│┃]$", "").strip();
      if (t.isEmpty() || t.chars().allMatch(ch -> "─━═╭╮╰╯┌┐└┘".indexOf(ch) >= 0)) {
        continue;
      }
      seen++;
      if (t.endsWith("?") || TITLE_VERB.matcher(t).find() || titles != null && titles.matcher(t).find()) {
        return t;
      }
    }
    return null;
  }
}
