package dev.agentdesk.terminal.parser;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * pi (0.73.1) draws inline and redraws its history rows when its editor moves: rows come back
 * changed with the text they already had. After an input the parser reads every line afresh, so
 * an old "Error: Retry failed … 429 …" would be a new limit. A changed row is new output only
 * when its text is on the screen more often than before (a repeated new error still counts).
 */
final class PiRedraw {
  private PiRedraw() {}

  static List<RowChange> newOutput(ScreenView before, ScreenView now, List<RowChange> changed) {
    if (before == null || changed.isEmpty()) {
      return changed;
    }
    Map<String, Integer> was = counts(before);
    Map<String, Integer> is = counts(now);
    List<RowChange> out = new ArrayList<>(changed.size());
    for (RowChange c : changed) {
      String t = c.text().strip();
      if (t.isEmpty() || is.getOrDefault(t, 0) > was.getOrDefault(t, 0)) {
        out.add(c);
      }
    }
    return out;
  }

  private static Map<String, Integer> counts(ScreenView s) {
    Map<String, Integer> m = new HashMap<>();
    for (int i = 0; i < s.rowCount(); i++) {
      String t = s.row(i).strip();
      if (!t.isEmpty()) {
        m.merge(t, 1, Integer::sum);
      }
    }
    return m;
  }
}
