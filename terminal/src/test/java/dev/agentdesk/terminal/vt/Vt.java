package dev.agentdesk.terminal.vt;

import java.nio.charset.StandardCharsets;
import java.util.List;

/** Test helpers: feed strings (escape sequences written with \u001b) and read the screen. */
final class Vt {
  private Vt() {}

  static final String ESC = "\u001b";
  static final String CSI = ESC + "[";

  static VtEngine engine(int cols, int rows, String... chunks) {
    VtEngine e = new VtEngine(cols, rows);
    for (String c : chunks) {
      feed(e, c);
    }
    return e;
  }

  static List<ChangedRow> feed(VtEngine e, String s) {
    return e.feed(s.getBytes(StandardCharsets.UTF_8));
  }

  static List<String> lines(VtEngine e) {
    return e.snapshot().lines();
  }

  static String line(VtEngine e, int row) {
    return e.snapshot().lines().get(row);
  }

  static int[] cursor(VtEngine e) {
    ScreenSnapshot s = e.snapshot();
    return new int[] {s.cursorRow(), s.cursorCol()};
  }
}
