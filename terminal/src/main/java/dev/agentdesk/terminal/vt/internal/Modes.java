package dev.agentdesk.terminal.vt.internal;

import java.util.Arrays;

/** SM/RM (ANSI modes), DECSET/DECRST (private modes) and DECSTR (soft reset). */
final class Modes {
  private Modes() {}

  static void setAnsi(Screen s, int mode, boolean on) {
    switch (mode) {
      case 4 -> s.insertMode = on;
      case 20 -> s.newlineMode = on;
      default -> {
        // Other ANSI modes (keyboard lock, send/receive) have no meaning here.
      }
    }
  }

  static void setPrivate(Screen s, int mode, boolean on) {
    switch (mode) {
      case 1 -> s.appCursorKeys = on;
      case 2 -> {
        if (on) {
          Arrays.fill(s.charsets, Screen.CHARSET_ASCII);
          s.charset = Screen.CHARSET_ASCII;
        }
      }
      case 6 -> {
        s.originMode = on;
        s.cursorTo(0, 0);
      }
      case 7 -> s.autowrap = on;
      case 25 -> s.cursorVisible = on;
      case 9, 1000, 1002, 1003 -> s.mouseTracking = on ? mode : 0;
      case 1006 -> s.sgrMouse = on;
      case 66 -> s.appKeypad = on;
      case 47, 1047 -> {
        if (on) {
          s.switchToAlt(true);
        } else {
          s.switchToPrimary();
        }
      }
      case 1048 -> {
        if (on) {
          s.saveCursor();
        } else {
          s.restoreCursor();
        }
      }
      case 1049 -> {
        // Save/restore happen even when the screen is already the requested one (as in xterm).
        if (on) {
          s.saveCursor();
          s.switchToAlt(true);
        } else {
          s.switchToPrimary();
          s.restoreCursor();
        }
      }
      case 2004 -> s.bracketedPaste = on;
      case 2026 -> s.syncOutput = on;
      default -> {
        // Cursor blink, focus reporting and the like do not change the screen model.
      }
    }
  }

  /** DECSTR: modes, margins, style and charsets back to defaults; the screen and cursor stay. */
  static void softReset(Screen s) {
    s.cursorVisible = true;
    s.active.marginTop = 0;
    s.active.marginBottom = s.rows - 1;
    s.style = 0;
    s.insertMode = false; // LNM is not among the modes DECSTR resets (xterm.js keeps it too)
    s.originMode = false;
    s.autowrap = true;
    s.appCursorKeys = false;
    s.appKeypad = false;
    Arrays.fill(s.charsets, Screen.CHARSET_ASCII);
    s.gl = 0;
    s.charset = Screen.CHARSET_ASCII;
    Grid.SavedCursor saved = s.active.saved;
    saved.present = true;
    saved.x = 0;
    saved.y = (int) (s.active == s.primary ? s.historyRows : 0); // row 0 of the screen, in saved-row terms
    saved.style = 0;
    saved.originMode = false;
    saved.charset = Screen.CHARSET_ASCII;
    saved.wrapPending = false;
  }

  /** RIS: both screens cleared, every mode, margin, tab stop and charset back to its default. */
  static void fullReset(Screen s) {
    s.historyRows = 0;
    for (Grid g : new Grid[] {s.primary, s.alt}) {
      g.clearAll(0);
      g.marginTop = 0;
      g.marginBottom = s.rows - 1;
      g.saved.present = false;
      g.tabStops = Screen.defaultTabs(s.cols);
    }
    s.active = s.primary;
    s.x = 0;
    s.y = 0;
    s.wrapPending = false;
    s.style = 0;
    s.autowrap = true;
    s.originMode = false;
    s.insertMode = false;
    s.newlineMode = false;
    s.cursorVisible = true;
    s.bracketedPaste = false;
    s.appCursorKeys = false;
    s.appKeypad = false;
    s.syncOutput = false;
    s.mouseTracking = 0;
    s.sgrMouse = false;
    Arrays.fill(s.charsets, Screen.CHARSET_ASCII);
    s.gl = 0;
    s.charset = Screen.CHARSET_ASCII;
  }

  /** DECALN: the screen filled with 'E'; the margins stay (as in xterm.js), the cursor goes home. */
  static void alignmentTest(Screen s) {
    Grid g = s.active;
    for (int r = 0; r < s.rows; r++) {
      Line l = g.lines[r];
      l.clear(s.style);
      Arrays.fill(l.cps, 'E');
      l.used = s.cols;
    }
    g.markAllDirty();
    s.cursorTo(0, 0);
  }
}
