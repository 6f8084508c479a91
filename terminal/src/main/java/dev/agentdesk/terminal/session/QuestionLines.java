package dev.agentdesk.terminal.session;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Screen-text rules of silence question detection: which rows may be a question and whether a
 * question is still the current prompt on the visible screen.
 */
final class QuestionLines {
  /** Candidate must be among this many last non-blank lines at fire time (spec). */
  static final int VERIFY_LAST_LINES = 5;
  private static final int MAX_QUESTION_CHARS = 500;
  private static final Pattern CODE_SYNTAX = Pattern.compile("->|=>|::|\\)\\?");
  private static final Pattern NUMBERED_OPTION = Pattern.compile("^\\s*(?:[❯›>]\\s*)?\\d+[.)]\\s+\\S.*");
  /** Leading agent bullets and box edges that frame a line without being part of it. */
  private static final Pattern FRAME = Pattern.compile("^[\\s│┃|●⏺•◦✻✶✳✢·*]+|[\\s│┃|]+$");

  private QuestionLines() {}

  /** The line's text without framing bullets and box edges. */
  static String clean(String row) {
    return FRAME.matcher(row).replaceAll("").strip();
  }

  /**
   * The bottom-most row of {@code rows} that ends with {@code ?} and passes the content filters:
   * not a code comment ({@code //}), markdown header ({@code #}), diff context ({@code +}/{@code -})
   * or code syntax ({@code ->}, {@code =>}, {@code ::}, {@code )?}).
   */
  static String candidate(List<String> rows) {
    for (int i = rows.size() - 1; i >= 0; i--) {
      String raw = rows.get(i);
      String text = clean(raw);
      if (isQuestion(raw, text)) {
        return text;
      }
    }
    return null;
  }

  static boolean isQuestion(String raw, String text) {
    if (text.length() < 2 || text.length() > MAX_QUESTION_CHARS || !text.endsWith("?")) {
      return false;
    }
    String lead = raw.stripLeading();
    if (text.startsWith("//") || text.startsWith("#") || lead.startsWith("+") || lead.startsWith("-")
        || text.startsWith("+") || text.startsWith("-")) {
      return false;
    }
    return !CODE_SYNTAX.matcher(text).find();
  }

  /**
   * Whether {@code question} is still the current prompt: among the last {@link #VERIFY_LAST_LINES}
   * non-blank lines of the chat content. With an input box visible only the content above the box
   * counts, so the composer and status rows below it can neither confirm nor hide a question.
   */
  static boolean stillShown(String question, List<String> screen) {
    for (String line : lastContentLines(screen)) {
      if (clean(line).equals(question)) {
        return true;
      }
    }
    return false;
  }

  /** Whether the visible chat content ends with any prompt: a {@code ?} line or a numbered menu. */
  static boolean showsAnyPrompt(List<String> screen) {
    for (String line : lastContentLines(screen)) {
      String text = clean(line);
      if (isQuestion(line, text) || NUMBERED_OPTION.matcher(line).matches()) {
        return true;
      }
    }
    return false;
  }

  static List<String> lastContentLines(List<String> screen) {
    int end = inputBoxTop(screen);
    List<String> out = new ArrayList<>();
    for (int i = end - 1; i >= 0 && out.size() < VERIFY_LAST_LINES; i--) {
      if (!screen.get(i).isBlank()) {
        out.add(0, screen.get(i));
      }
    }
    return out;
  }

  /**
   * Index of the first row of the bottom input box, or the screen size when there is none. A box
   * is a rounded or square top edge ({@code ╭─}, {@code ┌─}) or a horizontal rule ({@code ───})
   * in the bottom third of the screen followed by a composer row ({@code >}, {@code ›}, {@code ❯}
   * or a box edge) — the shapes Claude Code, Codex and Gemini draw.
   */
  static int inputBoxTop(List<String> screen) {
    int lastNonBlank = screen.size() - 1;
    while (lastNonBlank >= 0 && screen.get(lastNonBlank).isBlank()) {
      lastNonBlank--;
    }
    int floor = Math.max(0, lastNonBlank - Math.max(6, screen.size() / 3));
    for (int i = lastNonBlank; i >= floor; i--) {
      String t = screen.get(i).strip();
      boolean edge = t.startsWith("╭─") || t.startsWith("┌─") || t.startsWith("────");
      if (edge && i + 1 <= lastNonBlank) {
        String next = screen.get(i + 1).strip();
        if (next.startsWith(">") || next.startsWith("›") || next.startsWith("❯") || next.startsWith("│")
            || next.startsWith("┃")) {
          return i;
        }
      }
    }
    return screen.size();
  }
}
