package dev.agentdesk.aci.runtime.desktop;

import dev.agentdesk.aci.runtime.AciRuntimeException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** X keysym values for characters, key names and modifiers, and the combo syntax of the {@code key} verb. */
public final class Keysyms {
  public static final long SHIFT_L = 0xffe1;
  public static final long CONTROL_L = 0xffe3;
  public static final long ALT_L = 0xffe9;
  public static final long SUPER_L = 0xffeb;
  public static final long RETURN = 0xff0d;
  public static final long TAB = 0xff09;

  private static final Map<String, Long> MODIFIERS = new HashMap<>();
  private static final Map<String, Long> NAMED = new HashMap<>();

  static {
    mod(CONTROL_L, "ctrl", "control");
    mod(SHIFT_L, "shift");
    mod(ALT_L, "alt", "option");
    mod(SUPER_L, "super", "meta", "cmd", "command", "win");
    named(RETURN, "enter", "return");
    named(TAB, "tab");
    named(0xff1b, "escape", "esc");
    named(0x20, "space");
    named(0xff08, "backspace");
    named(0xffff, "delete", "del");
    named(0xff52, "up");
    named(0xff54, "down");
    named(0xff51, "left");
    named(0xff53, "right");
    named(0xff50, "home");
    named(0xff57, "end");
    named(0xff55, "pageup", "page_up", "pgup");
    named(0xff56, "pagedown", "page_down", "pgdn");
    named(0xff63, "insert", "ins");
    named(0xffe5, "capslock", "caps_lock");
    named(0xff7f, "numlock", "num_lock");
    named(0xff14, "scrolllock", "scroll_lock");
    named(0xff13, "pause", "break");
    named(0xff61, "printscreen", "print", "prtsc");
    named(0xff67, "menu", "apps");
    named('+', "plus");
    named('-', "minus");
    named('=', "equal", "equals");
    named(',', "comma");
    named('.', "period", "dot");
    named('/', "slash");
    named('\\', "backslash");
    named(';', "semicolon");
    named('\'', "apostrophe", "quote");
    named('`', "grave", "backtick");
    named('[', "bracketleft");
    named(']', "bracketright");
    named(0xff8d, "kp_enter");
    named(0xffab, "kp_add", "kp_plus");
    named(0xffad, "kp_subtract", "kp_minus");
    named(0xffaa, "kp_multiply");
    named(0xffaf, "kp_divide");
    named(0xffae, "kp_decimal");
    for (int i = 0; i <= 9; i++) {
      named(0xffb0 + i, "kp_" + i);
    }
    for (int i = 1; i <= 12; i++) {
      named(0xffbe + i - 1, "f" + i);
    }
  }

  private Keysyms() {}

  /** A parsed {@code key} combo: modifiers in press order, then the key. */
  public record Combo(List<Long> modifiers, long key) {}

  /**
   * Parses {@code ctrl+shift+t}, {@code alt+F4}, {@code Return}: split on '+', parts trimmed, empty
   * parts dropped; the last part is the key, the others modifiers (case-insensitive). A one-character
   * key is case-sensitive ({@code ctrl+S} types a capital S, so Shift is added).
   */
  public static Combo parseCombo(String keys) {
    List<String> parts = new ArrayList<>();
    for (String p : keys.split("\\+", -1)) {
      String t = p.trim();
      if (!t.isEmpty()) {
        parts.add(t);
      }
    }
    if (parts.isEmpty()) {
      throw AciRuntimeException.badRequest("empty key combo");
    }
    List<Long> mods = new ArrayList<>();
    for (String m : parts.subList(0, parts.size() - 1)) {
      Long ks = MODIFIERS.get(m.toLowerCase(Locale.ROOT));
      if (ks == null) {
        throw AciRuntimeException.badRequest("unknown modifier \"" + m + "\"");
      }
      mods.add(ks);
    }
    String key = parts.get(parts.size() - 1);
    return new Combo(List.copyOf(mods), keyNamed(key));
  }

  private static long keyNamed(String key) {
    if (key.codePointCount(0, key.length()) == 1) {
      long ks = forChar(key.codePointAt(0));
      if (ks >= 0) {
        return ks;
      }
    }
    String lower = key.toLowerCase(Locale.ROOT);
    Long named = NAMED.get(lower);
    if (named == null) {
      named = MODIFIERS.get(lower);
    }
    if (named == null) {
      throw AciRuntimeException.badRequest("unknown key \"" + key + "\"");
    }
    return named;
  }

  /**
   * The keysym that types code point {@code cp}, or -1 when it cannot be typed. Printable Latin-1
   * maps 1:1, newline and tab to Return and Tab, and every other printable code point to its
   * Unicode keysym ({@code 0x01000000 | cp}).
   */
  public static long forChar(int cp) {
    if (cp == '\n') {
      return RETURN;
    }
    if (cp == '\t') {
      return TAB;
    }
    if ((cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff)) {
      return cp;
    }
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || !Character.isDefined(cp)
        || Character.getType(cp) == Character.SURROGATE) {
      return -1;
    }
    return 0x01000000L | cp;
  }

  /** Keysyms for a whole text, or a {@code cannot type char} error naming the first bad character. */
  public static List<Long> forText(String text) {
    List<Long> out = new ArrayList<>(text.length());
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      long ks = forChar(cp);
      if (ks < 0) {
        throw AciRuntimeException.badRequest("cannot type char '" + describe(cp) + "'");
      }
      out.add(ks);
      i += Character.charCount(cp);
    }
    return out;
  }

  private static String describe(int cp) {
    return cp < 0x20 || (cp >= 0x7f && cp < 0xa0) ? String.format("\\u{%x}", cp) : new String(Character.toChars(cp));
  }

  private static void mod(long ks, String... names) {
    for (String n : names) {
      MODIFIERS.put(n, ks);
    }
  }

  private static void named(long ks, String... names) {
    for (String n : names) {
      NAMED.put(n, ks);
    }
  }
}
