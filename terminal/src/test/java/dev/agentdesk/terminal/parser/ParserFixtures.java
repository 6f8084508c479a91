package dev.agentdesk.terminal.parser;

import java.util.ArrayList;
import java.util.List;

/** Helpers to feed hand-written screens to the parser. */
final class ParserFixtures {
  private ParserFixtures() {}

  /** Every non-blank row of the screen as changed. */
  static List<RowChange> allRows(ScreenView s) {
    List<RowChange> out = new ArrayList<>();
    for (int i = 0; i < s.rowCount(); i++) {
      out.add(new RowChange(i, s.row(i)));
    }
    return out;
  }

  /** Parses one line as the only (changed) row of a screen, with a fresh parser. */
  static List<ParsedEvent> parseLine(Agent agent, String line) {
    ScreenView s = ScreenView.ofLines(List.of(line));
    return new OutputParser(agent, new ManualClock(0)).onScreen(s, allRows(s));
  }

  /** Parses lines as one screen, all rows changed, with a fresh parser. */
  static List<ParsedEvent> parseScreen(Agent agent, List<String> lines) {
    ScreenView s = ScreenView.ofLines(lines);
    return new OutputParser(agent, new ManualClock(0)).onScreen(s, allRows(s));
  }
}
