package dev.agentdesk.terminal.parser;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The slash-command menu of a composer: two or more consecutive {@code /command} rows, {@code ❯}
 * marking the highlighted one. Claude Code v2 draws it below the composer, older versions and
 * other agents above it or at the bottom, so the whole screen is read and the run nearest the
 * cursor (which sits in the composer) wins. A description too long for its row continues on
 * indented rows, which stay part of the run. Only consulted while the user is typing a slash
 * command (the caller's input state says so).
 */
final class SlashMenuDetector {
  private static final Pattern ITEM = Pattern.compile("^\\s*([❯›>▶]\\s*)?(/[A-Za-z][\\w:.-]*)(?:\\s{2,}.*|\\s*\\(.*\\))?\\s*$");
  /** A wrapped description: indented deeper than any item's command. */
  private static final Pattern CONTINUATION = Pattern.compile("^\\s{4,}[^\\s/❯›>▶]");

  private SlashMenuDetector() {}

  static ParsedEvent.SlashMenu detect(ScreenView screen) {
    int n = screen.rowCount();
    List<ParsedEvent.SlashMenuItem> best = List.of();
    int bestDistance = Integer.MAX_VALUE;
    List<ParsedEvent.SlashMenuItem> run = new ArrayList<>();
    int runStart = -1;
    int runEnd = -1;
    for (int i = 0; i <= n; i++) {
      String row = i < n ? screen.row(i) : "";
      Matcher m = ITEM.matcher(row);
      if (i < n && m.matches()) {
        if (run.isEmpty()) {
          runStart = i;
        }
        run.add(new ParsedEvent.SlashMenuItem(m.group(2), m.group(1) != null));
        runEnd = i;
      } else if (i < n && !run.isEmpty() && CONTINUATION.matcher(row).find()) {
        runEnd = i;
      } else {
        if (run.size() >= 2) {
          int c = screen.cursorRow();
          int distance = c < runStart ? runStart - c : c > runEnd ? c - runEnd : 0;
          if (distance <= bestDistance) {
            best = List.copyOf(run);
            bestDistance = distance;
          }
        }
        run.clear();
      }
    }
    return best.size() >= 2 ? new ParsedEvent.SlashMenu(best) : null;
  }
}
