package dev.agentdesk.terminal.parser;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The slash-command menu under a composer: two or more consecutive {@code /command} rows in the
 * bottom of the screen, {@code ❯} marking the highlighted one. Only consulted while the user is
 * typing a slash command (the caller's input state says so).
 */
final class SlashMenuDetector {
  private static final Pattern ITEM = Pattern.compile("^\\s*([❯›>▶]\\s*)?(/[A-Za-z][\\w:.-]*)(?:\\s{2,}.*|\\s*\\(.*\\))?\\s*$");
  private static final int BOTTOM_ROWS = 20;

  private SlashMenuDetector() {}

  static ParsedEvent.SlashMenu detect(ScreenView screen) {
    int n = screen.rowCount();
    List<ParsedEvent.SlashMenuItem> best = List.of();
    List<ParsedEvent.SlashMenuItem> run = new ArrayList<>();
    for (int i = Math.max(0, n - BOTTOM_ROWS); i <= n; i++) {
      Matcher m = i < n ? ITEM.matcher(screen.row(i)) : null;
      if (m != null && m.matches()) {
        run.add(new ParsedEvent.SlashMenuItem(m.group(2), m.group(1) != null));
      } else {
        if (run.size() >= 2) {
          best = List.copyOf(run);
        }
        run.clear();
      }
    }
    return best.size() >= 2 ? new ParsedEvent.SlashMenu(best) : null;
  }
}
