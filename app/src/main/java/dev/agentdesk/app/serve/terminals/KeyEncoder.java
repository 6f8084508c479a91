package dev.agentdesk.app.serve.terminals;

import dev.agentdesk.app.serve.ServeException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/**
 * Key names as the API and the browser send them, to the bytes an xterm sends. Arrow keys follow
 * the screen's cursor-key mode (DECCKM), which full-screen programs switch on. A single printable
 * character is sent as itself: that is how a choice prompt's one-key reply ("1") travels.
 */
final class KeyEncoder {
  private KeyEncoder() {}

  private static final String ESC = "\u001b";
  private static final Map<String, String> FIXED = Map.ofEntries(
      Map.entry("enter", "\r"), Map.entry("return", "\r"), Map.entry("tab", "\t"),
      Map.entry("shift-tab", ESC + "[Z"), Map.entry("backtab", ESC + "[Z"),
      Map.entry("escape", ESC), Map.entry("esc", ESC), Map.entry("backspace", "\u007f"),
      Map.entry("delete", ESC + "[3~"), Map.entry("insert", ESC + "[2~"),
      Map.entry("pageup", ESC + "[5~"), Map.entry("pagedown", ESC + "[6~"), Map.entry("space", " "),
      Map.entry("f1", ESC + "OP"), Map.entry("f2", ESC + "OQ"), Map.entry("f3", ESC + "OR"), Map.entry("f4", ESC + "OS"),
      Map.entry("f5", ESC + "[15~"), Map.entry("f6", ESC + "[17~"), Map.entry("f7", ESC + "[18~"),
      Map.entry("f8", ESC + "[19~"), Map.entry("f9", ESC + "[20~"), Map.entry("f10", ESC + "[21~"),
      Map.entry("f11", ESC + "[23~"), Map.entry("f12", ESC + "[24~"));
  private static final Map<String, Character> CURSOR = Map.of(
      "up", 'A', "down", 'B', "right", 'C', "left", 'D', "home", 'H', "end", 'F');

  /** The bytes for {@code name}; a 400 that lists the accepted names when it is not one. */
  static byte[] encode(String name, boolean applicationCursorKeys) {
    if (name == null || name.isEmpty()) {
      throw ServeException.badRequest("key is empty");
    }
    if (name.codePointCount(0, name.length()) == 1 && !Character.isISOControl(name.codePointAt(0))) {
      return name.getBytes(StandardCharsets.UTF_8);
    }
    String n = name.trim().toLowerCase(Locale.ROOT).replace('_', '-').replace('+', '-');
    String fixed = FIXED.get(n);
    if (fixed != null) {
      return fixed.getBytes(StandardCharsets.US_ASCII);
    }
    Character c = CURSOR.get(n);
    if (c != null) {
      return ((applicationCursorKeys ? ESC + "O" : ESC + "[") + c).getBytes(StandardCharsets.US_ASCII);
    }
    if (n.startsWith("ctrl-") && n.length() == 6) {
      char k = n.charAt(5);
      if (k >= 'a' && k <= 'z') {
        return new byte[] {(byte) (k - 'a' + 1)};
      }
      int idx = "@[\\]^_".indexOf(k);
      if (idx >= 0) {
        return new byte[] {(byte) (idx == 0 ? 0 : 27 + idx - 1)};
      }
    }
    throw ServeException.badRequest("unknown key '" + name + "'; use one character, enter, tab, shift-tab, "
        + "escape, backspace, delete, insert, up, down, left, right, home, end, pageup, pagedown, space, "
        + "f1..f12 or ctrl-a..ctrl-z");
  }
}
