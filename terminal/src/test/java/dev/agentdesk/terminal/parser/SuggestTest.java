package dev.agentdesk.terminal.parser;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code suggest:} reconstruction across rows, through the real VT engine where wrapping matters. */
class SuggestTest {
  private static List<ParsedEvent> through(int cols, String output) {
    ParsingTerminal t = new ParsingTerminal(Agent.CODEX, cols, 20, new ManualClock(0));
    byte[] b = output.getBytes(StandardCharsets.UTF_8);
    return t.output(b, 0, b.length);
  }

  private static List<ParsedEvent.Suggest> suggests(List<ParsedEvent> events) {
    return events.stream().filter(ParsedEvent.Suggest.class::isInstance).map(ParsedEvent.Suggest.class::cast).toList();
  }

  @Test
  void softWrapInsideTheKeywordIsRejoined() {
    // 5 columns: rows "• sug" | "gest:" | " [ Go" | " | St" | "op ]" — the VT engine soft-wraps inside the keyword.
    assertThat(suggests(through(5, "• suggest: [ Go | Stop ]\r\n\r\n")))
        .containsExactly(new ParsedEvent.Suggest(List.of("Go", "Stop")));
    // Not at column 0: prose that happens to contain the keyword.
    assertThat(suggests(through(10, "12345678 suggest: [ Go | Stop ]\r\n\r\n"))).isEmpty();
  }

  @Test
  void codexHangingIndentWithColonAloneRow() {
    ScreenView s = ScreenView.ofLines(List.of("• suggest", "  :", "  [ Run", "  tests |", "  Ship ]"));
    assertThat(SuggestDetector.detectAt(s, 0, s.rowCount())).isEqualTo(new ParsedEvent.Suggest(List.of("Run tests", "Ship")));
    ScreenView split = ScreenView.ofLines(List.of("• s", "  uggest: [ A | B ]"));
    assertThat(SuggestDetector.detectAt(split, 0, split.rowCount())).isEqualTo(new ParsedEvent.Suggest(List.of("A", "B")));
  }

  @Test
  void proseEndingInAPartialWordIsNotRewritten() {
    ScreenView s = ScreenView.ofLines(List.of("I would sugg", "  est: [ A | B ]"));
    assertThat(SuggestDetector.detectAt(s, 0, s.rowCount())).isNull();
  }

  @Test
  void atMostFourTransitions() {
    ScreenView four = ScreenView.ofLines(List.of("suggest: [ a", "  b |", "  c |", "  d |", "  e ]"));
    assertThat(SuggestDetector.detectAt(four, 0, four.rowCount())).isEqualTo(new ParsedEvent.Suggest(List.of("a b", "c", "d", "e")));
    ScreenView five = ScreenView.ofLines(List.of("suggest: [ a", "  b |", "  c |", "  d |", "  e", "  ]"));
    assertThat(SuggestDetector.detectAt(five, 0, five.rowCount())).isNull();
  }

  @Test
  void atMost512Bytes() {
    String longItem = "x".repeat(300);
    ScreenView s = ScreenView.ofLines(List.of("suggest: [ " + longItem, "  | " + longItem + " | y ]"));
    assertThat(SuggestDetector.detectAt(s, 0, s.rowCount())).isNull();
  }

  @Test
  void cellsRightOfTheCursorDoNotCompleteAToken() {
    // A carriage return left "]" of an older, longer line to the right of the cursor.
    ScreenView stale = new ScreenView(List.of("suggest: [ A | B        ]"), new BitSet(), 40, 0, 16, false);
    assertThat(SuggestDetector.detectAt(stale, 0, 1)).isNull();
    ScreenView done = new ScreenView(List.of("suggest: [ A | B ]"), new BitSet(), 40, 0, 17, false);
    assertThat(SuggestDetector.detectAt(done, 0, 1)).isEqualTo(new ParsedEvent.Suggest(List.of("A", "B")));
  }

  @Test
  void rowsBelowTheCursorAreNeverRead() {
    ScreenView s = new ScreenView(List.of("suggest: [ A |", "  B ]"), new BitSet(), 40, 0, 13, false);
    assertThat(SuggestDetector.detectAt(s, 0, 2)).isNull();
  }
}
