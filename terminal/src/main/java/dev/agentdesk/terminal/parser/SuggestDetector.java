package dev.agentdesk.terminal.parser;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code suggest: [ A | B | C ]} at column 0 (optionally after whitespace or an agent bullet),
 * reconstructed across terminal rows:
 *
 * <ul>
 *   <li>a soft wrap (the VT row continues on the next row) joins cell-exactly;</li>
 *   <li>an agent's hanging wrap indent (Codex: two spaces) joins with one space, except inside
 *       the keyword, where a narrow pane may split {@code s|uggest:} or leave {@code :} alone on
 *       its row;</li>
 *   <li>at most {@value #MAX_TRANSITIONS} row transitions and {@value #MAX_BYTES} bytes;</li>
 *   <li>on the cursor row only cells up to the cursor count, so stale cells to its right cannot
 *       complete a partial token; rows below the cursor are never read.</li>
 * </ul>
 *
 * The bracket body may not nest brackets and must hold 2–4 pipe-separated items.
 */
final class SuggestDetector {
  static final int MAX_TRANSITIONS = 4;
  static final int MAX_BYTES = 512;
  private static final String KEYWORD = "suggest:";
  private static final Pattern HEAD = Pattern.compile("^\\s*(?:[●⏺•◦]\\s*)?(\\S.*)$");
  private static final Pattern TOKEN = Pattern.compile("^suggest:[\\t ]*\\[([^\\[\\]]*)\\]\\s*$");

  private SuggestDetector() {}

  /** The suggestion whose head is on row {@code start}, or null. */
  static ParsedEvent.Suggest detectAt(ScreenView screen, int start, int end) {
    Matcher head = HEAD.matcher(cells(screen, start));
    if (!head.matches()) {
      return null;
    }
    String first = head.group(1);
    boolean keywordComplete = first.startsWith(KEYWORD);
    if (!keywordComplete && !(first.length() < KEYWORD.length() && KEYWORD.startsWith(first))) {
      return null;
    }
    StringBuilder logical = new StringBuilder(first);
    int row = start;
    int transitions = 0;
    while (logical.indexOf("]") < 0) {
      if (transitions == MAX_TRANSITIONS || row + 1 >= end || row + 1 > screen.cursorRow()) {
        return null;
      }
      boolean inKeyword = logical.length() < KEYWORD.length();
      String next = cells(screen, row + 1);
      if (screen.isWrapped(row)) {
        if (!inKeyword) {
          padToWidth(logical, screen, row);
        }
        logical.append(next);
      } else if (inKeyword || next.startsWith("  ") || next.strip().startsWith(":") || next.strip().startsWith("[")) {
        logical.append(inKeyword ? "" : " ").append(next.strip());
      } else {
        return null;
      }
      String sofar = logical.toString();
      if (!sofar.startsWith(KEYWORD) && !(sofar.length() < KEYWORD.length() && KEYWORD.startsWith(sofar))) {
        return null;
      }
      row++;
      transitions++;
      if (sofar.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
        return null;
      }
    }
    String text = logical.toString();
    if (!text.startsWith(KEYWORD)) {
      return null;
    }
    Matcher m = TOKEN.matcher(text);
    if (!m.matches()) {
      return null;
    }
    List<String> items = new ArrayList<>();
    for (String item : m.group(1).split("\\|", -1)) {
      String t = item.strip();
      if (t.isEmpty()) {
        return null;
      }
      items.add(t);
    }
    return items.size() >= 2 && items.size() <= 4 ? new ParsedEvent.Suggest(items) : null;
  }

  /** Row text as the parser may read it: on the cursor row, only cells up to the cursor. */
  private static String cells(ScreenView screen, int row) {
    String text = screen.row(row);
    if (row == screen.cursorRow()) {
      int keep = screen.cursorCol() + 1;
      int cut = text.offsetByCodePoints(0, Math.min(keep, text.codePointCount(0, text.length())));
      text = text.substring(0, cut);
    }
    return stripTrailing(text);
  }

  private static void padToWidth(StringBuilder logical, ScreenView screen, int row) {
    // A soft-wrapped row is full: blanks the renderer trimmed from its end were real cells.
    String text = stripTrailing(screen.row(row));
    int missing = screen.cols() - text.codePointCount(0, text.length());
    if (missing > 0) {
      logical.append(" ".repeat(Math.min(missing, MAX_BYTES)));
    }
  }

  private static String stripTrailing(String s) {
    int e = s.length();
    while (e > 0 && s.charAt(e - 1) == ' ') {
      e--;
    }
    return s.substring(0, e);
  }

  /** Cheap pre-filter for a head row. */
  static boolean mayStart(String row) {
    int i = 0;
    while (i < row.length() && (row.charAt(i) == ' ' || "●⏺•◦".indexOf(row.charAt(i)) >= 0)) {
      i++;
    }
    return i < row.length() && row.charAt(i) == 's';
  }
}
