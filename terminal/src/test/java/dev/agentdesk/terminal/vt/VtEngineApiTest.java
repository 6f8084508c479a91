package dev.agentdesk.terminal.vt;

import static dev.agentdesk.terminal.vt.Vt.CSI;
import static dev.agentdesk.terminal.vt.Vt.ESC;
import static dev.agentdesk.terminal.vt.Vt.cursor;
import static dev.agentdesk.terminal.vt.Vt.engine;
import static dev.agentdesk.terminal.vt.Vt.feed;
import static dev.agentdesk.terminal.vt.Vt.lines;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class VtEngineApiTest {
  @Test
  void feedReportsOnlyRowsWhoseTextChanged() {
    VtEngine e = new VtEngine(20, 4);
    assertThat(feed(e, "hello\r\nworld")).containsExactly(new ChangedRow(0, "hello"), new ChangedRow(1, "world"));
    // Redrawing the same text is not a change; moving the cursor is not a change.
    assertThat(feed(e, "\rworld" + CSI + "H")).isEmpty();
    assertThat(feed(e, "J")).containsExactly(new ChangedRow(0, "Jello"));
  }

  @Test
  void feedingWithoutChangesGivesTheSameScreenAndLeavesTheChangesForTheNextFeed() {
    String stream = "one\r\ntwo" + CSI + "31mred" + CSI + "0m\r\nthree\r\nfour " + CSI + "1;3Hx";
    VtEngine reported = new VtEngine(12, 3);
    feed(reported, stream);
    VtEngine quiet = new VtEngine(12, 3);
    byte[] b = stream.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    for (int i = 0; i < b.length; i += 5) {
      quiet.feedWithoutChanges(b, i, Math.min(5, b.length - i));
    }
    assertThat(quiet.snapshot()).isEqualTo(reported.snapshot());
    assertThat(quiet.log()).isEqualTo(reported.log());
    assertThat(feed(quiet, "")).containsExactly(new ChangedRow(0, "twxred"), new ChangedRow(1, "three"),
        new ChangedRow(2, "four"));
    assertThatThrownBy(() -> quiet.feedWithoutChanges(b, 3, b.length)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void changedRowsFollowTheActiveScreen() {
    VtEngine e = engine(20, 3, "primary");
    // The cursor keeps its place across the switch (as in xterm.js), so go home first.
    List<ChangedRow> rows = feed(e, CSI + "?1049h" + CSI + "Halt");
    assertThat(rows).containsExactly(new ChangedRow(0, "alt"));
    assertThat(e.snapshot().altScreen()).isTrue();
    assertThat(feed(e, CSI + "?1049l")).containsExactly(new ChangedRow(0, "primary"));
  }

  @Test
  void synchronizedOutputHoldsRowsUntilTheFrameEnds() {
    VtEngine e = new VtEngine(20, 3);
    assertThat(feed(e, CSI + "?2026h" + "frame")).isEmpty();
    assertThat(e.modes().synchronizedOutput()).isTrue();
    assertThat(feed(e, " two" + CSI + "?2026l")).containsExactly(new ChangedRow(0, "frame two"));
  }

  @Test
  void snapshotHasCursorWrapFlagsTitleAndAltScreen() {
    VtEngine e = engine(5, 3, ESC + "]2;my title\u0007", "abcdefg");
    ScreenSnapshot s = e.snapshot();
    assertThat(s.lines()).containsExactly("abcde", "fg", "");
    assertThat(s.wrapped()).containsExactly(false, true, false);
    assertThat(s.cursorRow()).isEqualTo(1);
    assertThat(s.cursorCol()).isEqualTo(2);
    assertThat(s.title()).isEqualTo("my title");
    assertThat(s.altScreen()).isFalse();
    assertThat(s.text()).isEqualTo("abcde\nfg");
  }

  @Test
  void rowsScrolledOffThePrimaryScreenGoToTheLogInOrder() {
    VtEngine e = new VtEngine(10, 2);
    feed(e, "one\r\ntwo\r\nthree\r\nfour");
    assertThat(e.log()).containsExactly(new LogLine(0, "one", false), new LogLine(1, "two", false));
    assertThat(lines(e)).containsExactly("three", "four");
    assertThat(e.logSince(1)).containsExactly(new LogLine(1, "two", false));
    assertThat(e.logEnd()).isEqualTo(2);
  }

  @Test
  void alternateScreenContentNeverEntersTheLog() {
    VtEngine e = new VtEngine(10, 2);
    feed(e, CSI + "?1049h");
    for (int i = 0; i < 50; i++) {
      feed(e, "alt " + i + "\r\n");
    }
    feed(e, CSI + "?1049l");
    assertThat(e.log()).isEmpty();
  }

  @Test
  void aFullLogReusingItsRowsShowsEachRowExactly() {
    // Rows of falling and rising length pass through a 3-row ring many times: a row copied into a
    // longer row's old storage must not show that row's tail, read early or late.
    VtEngine e = new VtEngine(12, 1, 3);
    List<String> all = new ArrayList<>();
    String[] shapes = {"abcdefghijkl", "xy", "", "mnopq", "z", "日本語", "wide日本 x"};
    for (int i = 0; i < 40; i++) {
      String row = shapes[(i * 5) % shapes.length];
      all.add(row);
      feed(e, row + "\r\n");
      if (i % 7 == 0) {
        assertThat(e.log().get(e.log().size() - 1).text()).isEqualTo(row);
      }
    }
    assertThat(e.log()).extracting(LogLine::text).containsExactlyElementsOf(all.subList(37, 40));
    assertThat(e.log()).extracting(LogLine::seq).containsExactly(37L, 38L, 39L);
  }

  @Test
  void logIsBoundedAndKeepsTheNewestRows() {
    VtEngine e = new VtEngine(10, 2, 3);
    for (int i = 0; i < 10; i++) {
      feed(e, "l" + i + "\r\n");
    }
    assertThat(e.log()).extracting(LogLine::text).containsExactly("l6", "l7", "l8");
    assertThat(e.log().get(0).seq()).isEqualTo(6);
    assertThat(e.logEnd()).isEqualTo(9);
  }

  @Test
  void oscOtherThanTitleReachesListenersInStreamOrder() {
    VtEngine e = new VtEngine(20, 2);
    List<String> seen = new ArrayList<>();
    e.addOscListener((code, payload) -> seen.add(code + "|" + payload));
    feed(e, ESC + "]9;4;1;50\u0007" + ESC + "]2;title" + ESC + "\\" + ESC + "]777;notify;Claude;hi" + ESC + "\\");
    assertThat(seen).containsExactly("9|4;1;50", "777|notify;Claude;hi");
    assertThat(e.title()).isEqualTo("title");
  }

  @Test
  void resizeKeepsContentAndReportsChanges() {
    VtEngine e = engine(10, 3, "abc\r\ndef");
    List<ChangedRow> changed = e.resize(20, 4);
    assertThat(lines(e)).containsExactly("abc", "def", "", "");
    assertThat(changed).isEmpty(); // same text on every row
    assertThat(e.cols()).isEqualTo(20);
    assertThat(cursor(e)).containsExactly(1, 3);
  }

  @Test
  void badSizesAndSlicesAreRejectedWithClearErrors() {
    assertThatThrownBy(() -> new VtEngine(0, 24)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0x24");
    assertThatThrownBy(() -> new VtEngine(80, 24, -1)).isInstanceOf(IllegalArgumentException.class);
    VtEngine e = new VtEngine(80, 24);
    assertThatThrownBy(() -> e.feed(new byte[4], 2, 5)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> e.resize(80, 0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void styledCellsCarrySgrAttributes() {
    VtEngine e = engine(10, 1, CSI + "1;31mA" + CSI + "0;38;2;1;2;3;48;5;200mB" + CSI + "m\u4e00");
    List<StyledCell> row = e.styledRow(0);
    assertThat(row.get(0).style().bold()).isTrue();
    assertThat(row.get(0).style().foreground()).isEqualTo(new Color.Indexed(1));
    assertThat(row.get(1).style().foreground()).isEqualTo(new Color.Rgb(1, 2, 3));
    assertThat(row.get(1).style().background()).isEqualTo(new Color.Indexed(200));
    assertThat(row.get(1).style().bold()).isFalse();
    assertThat(row.get(2)).isEqualTo(new StyledCell(2, "\u4e00", 2, CellStyle.DEFAULT));
    assertThat(row.get(3).col()).isEqualTo(4);
  }
}
