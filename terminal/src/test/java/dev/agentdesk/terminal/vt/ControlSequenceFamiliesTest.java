package dev.agentdesk.terminal.vt;

import static dev.agentdesk.terminal.vt.Vt.CSI;
import static dev.agentdesk.terminal.vt.Vt.ESC;
import static dev.agentdesk.terminal.vt.Vt.cursor;
import static dev.agentdesk.terminal.vt.Vt.engine;
import static dev.agentdesk.terminal.vt.Vt.feed;
import static dev.agentdesk.terminal.vt.Vt.line;
import static dev.agentdesk.terminal.vt.Vt.lines;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** One nested class per control-sequence family, each with hand-computed screens. */
class ControlSequenceFamiliesTest {
  @Nested
  class C0Controls {
    @Test
    void carriageReturnLineFeedBackspaceTab() {
      VtEngine e = engine(20, 3, "abc\rX\nY", "\r\n12\b3\tT");
      assertThat(lines(e)).containsExactly("Xbc", " Y", "13      T");
      assertThat(cursor(e)).containsExactly(2, 9);
    }

    @Test
    void verticalTabAndFormFeedAreLineFeedsAndBellIsIgnored() {
      VtEngine e = engine(10, 3, "a\u000bb\u000cc\u0007");
      assertThat(lines(e)).containsExactly("a", " b", "  c");
    }

    @Test
    void newlineModeMakesLineFeedReturnTheCarriage() {
      VtEngine e = engine(10, 3, CSI + "20h" + "ab\ncd");
      assertThat(lines(e)).containsExactly("ab", "cd", "");
      assertThat(e.modes().newlineMode()).isTrue();
    }
  }

  @Nested
  class CursorMovement {
    @Test
    void absoluteAndRelativeMovesClampToTheScreen() {
      VtEngine e = new VtEngine(10, 5);
      feed(e, CSI + "3;4H");
      assertThat(cursor(e)).containsExactly(2, 3);
      feed(e, CSI + "2A" + CSI + "5C");
      assertThat(cursor(e)).containsExactly(0, 8);
      feed(e, CSI + "99B" + CSI + "99D");
      assertThat(cursor(e)).containsExactly(4, 0);
      feed(e, CSI + "7G" + CSI + "2d");
      assertThat(cursor(e)).containsExactly(1, 6);
      feed(e, CSI + "E");
      assertThat(cursor(e)).containsExactly(2, 0);
      feed(e, CSI + "5;5f" + CSI + "2F");
      assertThat(cursor(e)).containsExactly(2, 0);
      feed(e, CSI + "H");
      assertThat(cursor(e)).containsExactly(0, 0);
    }

    @Test
    void verticalMovesStopAtTheScrollMargins() {
      VtEngine e = engine(10, 6, CSI + "2;4r" + CSI + "3;1H" + CSI + "9A");
      assertThat(cursor(e)).containsExactly(1, 0);
      feed(e, CSI + "9B");
      assertThat(cursor(e)).containsExactly(3, 0);
    }

    @Test
    void originModeMakesRowsRelativeToTheRegion() {
      VtEngine e = engine(10, 6, CSI + "3;5r" + CSI + "?6h");
      assertThat(cursor(e)).containsExactly(2, 0);
      feed(e, CSI + "2;3H");
      assertThat(cursor(e)).containsExactly(3, 2);
      feed(e, CSI + "9;1H");
      assertThat(cursor(e)).containsExactly(4, 0); // clamped to the region's bottom
      feed(e, CSI + "?6l");
      assertThat(cursor(e)).containsExactly(0, 0);
    }

    @Test
    void saveAndRestoreCursorWithEscAndCsi() {
      VtEngine e = engine(10, 4, CSI + "2;3H" + ESC + "7" + CSI + "H" + ESC + "8");
      assertThat(cursor(e)).containsExactly(1, 2);
      feed(e, CSI + "4;4H" + CSI + "s" + CSI + "H" + CSI + "u");
      assertThat(cursor(e)).containsExactly(3, 3);
    }
  }

  @Nested
  class Erase {
    @Test
    void eraseInLineModes() {
      assertThat(line(engine(10, 1, "abcdef" + CSI + "4G" + CSI + "K"), 0)).isEqualTo("abc");
      assertThat(line(engine(10, 1, "abcdef" + CSI + "4G" + CSI + "1K"), 0)).isEqualTo("    ef");
      assertThat(line(engine(10, 1, "abcdef" + CSI + "4G" + CSI + "2K"), 0)).isEmpty();
    }

    @Test
    void eraseInDisplayModes() {
      String three = "111\r\n222\r\n333" + CSI + "2;2H";
      assertThat(lines(engine(5, 3, three + CSI + "J"))).containsExactly("111", "2", "");
      assertThat(lines(engine(5, 3, three + CSI + "1J"))).containsExactly("", "  2", "333");
      assertThat(lines(engine(5, 3, three + CSI + "2J"))).containsExactly("", "", "");
    }

    @Test
    void eraseCharactersDoesNotMoveText() {
      VtEngine e = engine(10, 1, "abcdef" + CSI + "2G" + CSI + "3X");
      assertThat(line(e, 0)).isEqualTo("a   ef");
      assertThat(cursor(e)).containsExactly(0, 1);
    }

    @Test
    void eraseRightAfterAFullRowKeepsTheLastCharacterLikeXtermJs() {
      VtEngine e = engine(4, 2, "abcd" + CSI + "K");
      assertThat(line(e, 0)).isEqualTo("abcd");
      assertThat(e.snapshot().wrapPending()).isTrue();
    }
  }

  @Nested
  class InsertDelete {
    @Test
    void insertAndDeleteCharacters() {
      assertThat(line(engine(8, 1, "abcdef" + CSI + "3G" + CSI + "2@"), 0)).isEqualTo("ab  cdef");
      assertThat(line(engine(8, 1, "abcdefgh" + CSI + "3G" + CSI + "2@"), 0)).isEqualTo("ab  cdef");
      assertThat(line(engine(8, 1, "abcdef" + CSI + "2G" + CSI + "2P"), 0)).isEqualTo("adef");
    }

    @Test
    void insertAndDeleteLinesInsideTheRegion() {
      String rows = "1\r\n2\r\n3\r\n4";
      assertThat(lines(engine(4, 4, rows + CSI + "2;1H" + CSI + "L"))).containsExactly("1", "", "2", "3");
      assertThat(lines(engine(4, 4, rows + CSI + "2;1H" + CSI + "2M"))).containsExactly("1", "4", "", "");
      // Outside the region nothing happens.
      assertThat(lines(engine(4, 4, rows + CSI + "1;2r" + CSI + "4;1H" + CSI + "L"))).containsExactly("1", "2", "3", "4");
    }

    @Test
    void insertModeShiftsTextRight() {
      VtEngine e = engine(8, 1, "abc" + CSI + "1G" + CSI + "4h" + "XY" + CSI + "4l" + "Z");
      assertThat(line(e, 0)).isEqualTo("XYZbc"); // "XY" pushed "abc" right; "Z" then overwrote the "a"
    }

    @Test
    void repeatPrintsThePrecedingCharacterAgain() {
      assertThat(line(engine(10, 1, "a=" + CSI + "4b"), 0)).isEqualTo("a=====");
    }
  }

  @Nested
  class ScrollRegions {
    @Test
    void lineFeedAtTheBottomMarginScrollsOnlyTheRegion() {
      VtEngine e = engine(5, 4, "top\r\na\r\nb\r\nbot" + CSI + "2;3r" + CSI + "3;1H" + "\nc");
      assertThat(lines(e)).containsExactly("top", "b", "c", "bot");
      assertThat(e.log()).isEmpty(); // the region does not start at row 0: nothing leaves the screen
    }

    @Test
    void reverseIndexAtTheTopMarginScrollsDown() {
      VtEngine e = engine(5, 3, "a\r\nb\r\nc" + CSI + "H" + ESC + "M" + "z");
      assertThat(lines(e)).containsExactly("z", "a", "b");
    }

    @Test
    void scrollUpAndDown() {
      assertThat(lines(engine(4, 3, "1\r\n2\r\n3" + CSI + "S"))).containsExactly("2", "3", "");
      assertThat(lines(engine(4, 3, "1\r\n2\r\n3" + CSI + "2T"))).containsExactly("", "", "1");
    }

    @Test
    void regionStartingAtTheTopFeedsTheLogAndKeepsAStatusLine() {
      VtEngine e = engine(10, 3, CSI + "3;1Hstatus" + CSI + "1;2r" + CSI + "1;1H");
      feed(e, "one\r\ntwo\r\nthree\r\n");
      assertThat(lines(e)).containsExactly("three", "", "status");
      assertThat(e.log()).extracting(LogLine::text).containsExactly("one", "two");
    }
  }

  @Nested
  class Sgr {
    @Test
    void flagsColoursAndResets() {
      VtEngine e = engine(10, 1, CSI + "1;2;3;4;5;7;8;9;53mA" + CSI + "22;23;24;25;27;28;29;55mB"
          + CSI + "91;104mC" + CSI + "38:5:99mD" + CSI + "48:2::9:8:7mE" + CSI + "39;49mF");
      List<StyledCell> row = e.styledRow(0);
      CellStyle a = row.get(0).style();
      assertThat(List.of(a.bold(), a.dim(), a.italic(), a.underline(), a.blink(), a.inverse(), a.invisible(),
          a.strikethrough(), a.overline())).containsOnly(true);
      CellStyle b = row.get(1).style();
      assertThat(b).isEqualTo(CellStyle.DEFAULT);
      assertThat(row.get(2).style().foreground()).isEqualTo(new Color.Indexed(9));
      assertThat(row.get(2).style().background()).isEqualTo(new Color.Indexed(12));
      assertThat(row.get(3).style().foreground()).isEqualTo(new Color.Indexed(99));
      assertThat(row.get(4).style().background()).isEqualTo(new Color.Rgb(9, 8, 7));
      assertThat(row.get(5).style().foreground()).isEqualTo(Color.DEFAULT);
      assertThat(row.get(5).style().background()).isEqualTo(Color.DEFAULT);
    }

    @Test
    void eraseUsesTheCurrentBackground() {
      VtEngine e = engine(4, 1, CSI + "44m" + CSI + "K");
      assertThat(e.styledRow(0).get(3).style().background()).isEqualTo(new Color.Indexed(4));
    }
  }

  @Nested
  class Modes {
    @Test
    void autowrapOffOverwritesTheLastColumn() {
      VtEngine e = engine(4, 2, CSI + "?7l" + "abcdef");
      assertThat(lines(e)).containsExactly("abcf", "");
    }

    @Test
    void modeFlagsAreReported() {
      VtEngine e = engine(10, 2, CSI + "?25l" + CSI + "?2004h" + CSI + "?1h" + CSI + "?1000h" + CSI + "?1006h" + ESC + "=");
      TerminalModes m = e.modes();
      assertThat(m.cursorVisible()).isFalse();
      assertThat(m.bracketedPaste()).isTrue();
      assertThat(m.applicationCursorKeys()).isTrue();
      assertThat(m.mouseTracking()).isEqualTo(1000);
      assertThat(m.sgrMouse()).isTrue();
      assertThat(m.applicationKeypad()).isTrue();
      feed(e, CSI + "!p");
      assertThat(e.modes().cursorVisible()).isTrue();
      assertThat(e.modes().applicationCursorKeys()).isFalse();
    }

    @Test
    void alternateScreen1049SavesTheCursorAndRestoresThePrimaryScreen() {
      VtEngine e = engine(10, 3, "shell$ ls" + CSI + "?1049h" + CSI + "H" + "full screen" + CSI + "?1049l");
      assertThat(lines(e)).containsExactly("shell$ ls", "", "");
      assertThat(cursor(e)).containsExactly(0, 9);
      assertThat(e.snapshot().altScreen()).isFalse();
    }

    @Test
    void alternateScreen47KeepsTheCursorWhereTheAltScreenLeftIt() {
      VtEngine e = engine(10, 3, "ab" + CSI + "?47h" + "\r\nxy" + CSI + "?47l");
      assertThat(lines(e)).containsExactly("ab", "", "");
      assertThat(cursor(e)).containsExactly(1, 2);
    }
  }

  @Nested
  class EscAndCharsets {
    @Test
    void indexNextLineAndReverseIndex() {
      VtEngine e = engine(5, 3, "a" + ESC + "Db" + ESC + "Ec" + ESC + "M" + ESC + "Md");
      assertThat(lines(e)).containsExactly("ad", " b", "c");
    }

    @Test
    void decLineDrawingViaG0AndViaShiftOut() {
      assertThat(line(engine(10, 1, ESC + "(0lqk" + ESC + "(Bq"), 0)).isEqualTo("\u250c\u2500\u2510q");
      assertThat(line(engine(10, 1, ESC + ")0" + "x\u000ex\u000fx"), 0)).isEqualTo("x\u2502x");
    }

    @Test
    void fullResetClearsScreenAndModes() {
      VtEngine e = engine(10, 2, CSI + "?25l" + "text" + ESC + "c");
      assertThat(lines(e)).containsExactly("", "");
      assertThat(e.modes().cursorVisible()).isTrue();
    }

    @Test
    void alignmentPatternFillsTheScreen() {
      assertThat(lines(engine(3, 2, ESC + "#8"))).containsExactly("EEE", "EEE");
    }
  }

  @Nested
  class TabStops {
    @Test
    void setClearAndMoveBetweenStops() {
      VtEngine e = engine(20, 1, CSI + "3g" + CSI + "5G" + ESC + "H" + CSI + "12G" + ESC + "H" + CSI + "G");
      feed(e, "\tA\tB");
      assertThat(line(e, 0)).isEqualTo("    A      B");
      feed(e, CSI + "2Z");
      assertThat(cursor(e)).containsExactly(0, 4);
      feed(e, CSI + "I");
      assertThat(cursor(e)).containsExactly(0, 11);
      feed(e, CSI + "g" + CSI + "G\t");
      assertThat(cursor(e)).containsExactly(0, 4);
    }
  }

  @Nested
  class Strings {
    @Test
    void titleWithBelOrStAndOtherOscToListeners() {
      VtEngine e = new VtEngine(10, 1);
      StringBuilder seen = new StringBuilder();
      e.addOscListener((code, payload) -> seen.append(code).append('=').append(payload).append(';'));
      feed(e, ESC + "]0;first\u0007" + ESC + "]2;second" + ESC + "\\" + ESC + "]8;;http://x\u0007" + ESC + "]L\u0007");
      assertThat(e.title()).isEqualTo("second");
      assertThat(seen).hasToString("0=first;8=;http://x;-1=L;");
    }

    @Test
    void dcsApcPmSosAreConsumedWithoutTouchingTheScreen() {
      VtEngine e = engine(20, 1, "a" + ESC + "Pq#0;2;0;0;0\u0007still dcs" + ESC + "\\b" + ESC + "_apc" + ESC + "\\c"
          + ESC + "^pm" + ESC + "\\d" + ESC + "Xsos" + ESC + "\\e");
      assertThat(line(e, 0)).isEqualTo("abcde");
    }

    @Test
    void cancelAbortsASequence() {
      assertThat(line(engine(10, 1, "a" + CSI + "31\u0018b" + ESC + "]0;t\u001ac"), 0)).isEqualTo("abc");
    }

    @Test
    void oscPayloadSplitAcrossChunksArrivesWhole() {
      VtEngine e = new VtEngine(10, 1);
      StringBuilder seen = new StringBuilder();
      e.addOscListener((code, payload) -> seen.append(code).append(':').append(payload));
      feed(e, ESC + "]9;4;1");
      feed(e, ";77");
      assertThat(seen).isEmpty();
      feed(e, "\u0007");
      assertThat(seen).hasToString("9:4;1;77");
    }
  }

  @Nested
  class WideAndCombining {
    @Test
    void wideCharactersTakeTwoCellsAndWrapEarly() {
      VtEngine e = engine(5, 2, "ab\u4e00\u4e8c");
      assertThat(lines(e)).containsExactly("ab\u4e00", "\u4e8c");
      assertThat(e.snapshot().wrapped()).containsExactly(false, true);
      assertThat(cursor(e)).containsExactly(1, 2);
    }

    @Test
    void emojiAreWide() {
      VtEngine e = engine(10, 1, "\ud83d\ude80x");
      assertThat(cursor(e)).containsExactly(0, 3);
      assertThat(e.styledRow(0).get(0).width()).isEqualTo(2);
    }

    @Test
    void combiningMarksJoinThePreviousCell() {
      VtEngine e = engine(10, 1, "e\u0301x\u4e00\u0308y");
      assertThat(line(e, 0)).isEqualTo("e\u0301x\u4e00\u0308y");
      assertThat(cursor(e)).containsExactly(0, 5);
    }

    @Test
    void overwritingHalfAWideCharacterBlanksTheOtherHalf() {
      assertThat(line(engine(6, 1, "\u4e00\u4e8c" + CSI + "2G" + "x"), 0)).isEqualTo(" x\u4e8c");
      assertThat(line(engine(6, 1, "\u4e00\u4e8c" + CSI + "3G" + "x"), 0)).isEqualTo("\u4e00x");
    }
  }

  @Nested
  class ResizeAndReflow {
    @Test
    void narrowingReflowsALongLineAndWideningJoinsItAgain() {
      VtEngine e = engine(10, 4, "0123456789abcdef\r\nnext");
      assertThat(lines(e)).containsExactly("0123456789", "abcdef", "next", "");
      e.resize(6, 4);
      assertThat(lines(e)).containsExactly("012345", "6789ab", "cdef", "next");
      assertThat(e.snapshot().wrapped()).containsExactly(false, true, true, false);
      assertThat(cursor(e)).containsExactly(3, 4);
      e.resize(20, 4);
      assertThat(lines(e)).containsExactly("0123456789abcdef", "next", "", "");
      assertThat(cursor(e)).containsExactly(1, 4);
    }

    @Test
    void rowsPushedOutByReflowGoToTheLog() {
      VtEngine e = engine(8, 3, "abcdefgh12\r\nxy");
      e.resize(4, 3);
      assertThat(lines(e)).containsExactly("efgh", "12", "xy");
      assertThat(e.snapshot().wrapped()).containsExactly(true, true, false);
      assertThat(e.log()).containsExactly(new LogLine(0, "abcd", false));
    }

    @Test
    void shrinkingDropsBlankRowsBelowTheCursorFirst() {
      VtEngine e = engine(10, 5, "a\r\nb");
      e.resize(10, 2);
      assertThat(lines(e)).containsExactly("a", "b");
      assertThat(e.log()).isEmpty();
    }

    @Test
    void alternateScreenIsCutNotReflowed() {
      VtEngine e = engine(6, 2, CSI + "?1049h" + "abcdefgh");
      e.resize(3, 2);
      assertThat(lines(e)).containsExactly("abc", "gh");
      assertThat(e.log()).isEmpty();
    }

    @Test
    void wideCharactersMoveWhole() {
      VtEngine e = engine(6, 3, "a\u4e00\u4e8c\u4e09");
      e.resize(4, 3);
      assertThat(lines(e)).containsExactly("a\u4e00", "\u4e8c\u4e09", "");
    }
  }

  @Nested
  class ColumnShiftsInTheScrollRegion {
    private static final String ROWS = "abcdefghij\r\nabcdefghij\r\nabcdefghij\r\nabcdefghij";

    @Test
    void scrollLeftAndRightShiftEveryRowBetweenTheMargins() {
      VtEngine e = engine(10, 4, ROWS, CSI + "2;3r" + CSI + "2;5H" + CSI + "3 @");
      assertThat(lines(e)).containsExactly("abcdefghij", "defghij", "defghij", "abcdefghij");
      feed(e, CSI + "2 A");
      assertThat(lines(e)).containsExactly("abcdefghij", "  defghij", "  defghij", "abcdefghij");
      assertThat(cursor(e)).containsExactly(1, 4);
    }

    @Test
    void insertAndDeleteColumnWorkFromTheCursorColumn() {
      VtEngine e = engine(10, 4, ROWS, CSI + "2;3r" + CSI + "3;4H" + CSI + "2'}");
      assertThat(lines(e)).containsExactly("abcdefghij", "abc  defgh", "abc  defgh", "abcdefghij");
      feed(e, CSI + "1;1H" + CSI + "3;2H" + CSI + "3'~");
      assertThat(lines(e)).containsExactly("abcdefghij", "a defgh", "a defgh", "abcdefghij");
    }

    @Test
    void aCursorOutsideTheMarginsShiftsNothing() {
      VtEngine e = engine(10, 4, ROWS, CSI + "2;3r" + CSI + "4;5H" + CSI + "3 @" + CSI + "2 A" + CSI + "2'}" + CSI + "2'~");
      assertThat(lines(e)).containsExactly("abcdefghij", "abcdefghij", "abcdefghij", "abcdefghij");
    }
  }

  @Nested
  class SelectiveErase {
    @Test
    void decsedAndDecselKeepProtectedCellsWhileEdAndElEraseThemToo() {
      // DECSCA 1 protects what follows; 0 and 2 end it; SGR 0 does not touch it.
      VtEngine e = engine(10, 3, "A" + CSI + "1\"q" + CSI + "0mB" + CSI + "2\"qC\r\n", "x" + CSI + "1\"qyy" + CSI + "0\"qz\r\nlast");
      feed(e, CSI + "?2J");
      assertThat(lines(e)).containsExactly(" B", " yy", "");
      feed(e, CSI + "1;1HA" + CSI + "?1K"); // from the row start to the cursor, on the protected B
      assertThat(lines(e)).containsExactly(" B", " yy", "");
      feed(e, CSI + "2;1H" + CSI + "2K");
      assertThat(lines(e)).containsExactly(" B", "", "");
      feed(e, CSI + "1;1H" + CSI + "J");
      assertThat(lines(e)).containsExactly("", "", "");
    }

    @Test
    void erasedCellsAndAResetLeaveNothingProtected() {
      VtEngine e = engine(10, 2, CSI + "1\"qab" + CSI + "!p" + "cd" + CSI + "?2K");
      assertThat(lines(e)).containsExactly("ab", "");
      feed(e, CSI + "K" + CSI + "1;1H" + CSI + "2K" + "ef" + CSI + "?2K");
      assertThat(lines(e)).containsExactly("", "");
    }
  }

  @Nested
  class SavedPendingWrap {
    @Test
    void decrcAndLeavingTheAlternateScreenBringThePendingWrapBack() {
      VtEngine e = engine(5, 3, "abcde" + ESC + "7" + CSI + "1;1H" + ESC + "8" + "f");
      assertThat(lines(e)).containsExactly("abcde", "f", "");
      VtEngine alt = engine(5, 3, "abcde" + CSI + "?1049h" + "x" + CSI + "?1049l" + "f");
      assertThat(lines(alt)).containsExactly("abcde", "f", "");
      VtEngine sco = engine(5, 3, "abcde" + CSI + "s" + "\r" + CSI + "u" + "f");
      assertThat(lines(sco)).containsExactly("abcde", "f", "");
    }

    @Test
    void aSaveWithoutAPendingWrapAndAScrollSinceTheSaveRestoreTheCursorOnTheLastColumn() {
      VtEngine e = engine(5, 3, "abcd" + ESC + "7e" + ESC + "8" + "f");
      assertThat(lines(e)).containsExactly("abcdf", "", "");
      // Rows moved under the saved position: the row there is another line, so no wrap from it.
      VtEngine scrolled = engine(5, 3, "abcde" + ESC + "7" + "\r\nxy" + CSI + "S" + ESC + "8" + "f");
      assertThat(lines(scrolled)).containsExactly("xy  f", "", "");
    }
  }
}
