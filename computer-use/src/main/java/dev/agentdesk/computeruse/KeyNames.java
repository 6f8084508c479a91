package dev.agentdesk.computeruse;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Key names of the two vendors into the combo syntax of ACI's {@code key} verb (lower-case names
 * joined by '+', modifiers first). Anthropic's {@code key} takes xdotool's syntax: X keysym names
 * ({@code Return}, {@code Page_Down}, {@code KP_0}, {@code exclam}) joined by '+', several combos
 * separated by spaces. OpenAI's {@code keypress} takes a list of key names pressed together
 * ({@code ["CTRL", "L"]}).
 */
final class KeyNames {
  /** Modifier names, lower-cased, to ACI's modifier names. */
  private static final Map<String, String> MODIFIERS = new HashMap<>();
  /** Every other key name, lower-cased, to the ACI key name. */
  private static final Map<String, String> KEYS = new HashMap<>();

  static {
    modifier("ctrl", "ctrl", "control", "control_l", "control_r", "ctrl_l", "ctrl_r");
    modifier("shift", "shift", "shift_l", "shift_r");
    modifier("alt", "alt", "alt_l", "alt_r", "option", "iso_level3_shift");
    modifier("super", "super", "super_l", "super_r", "cmd", "command", "win", "windows", "meta", "meta_l", "meta_r",
        "hyper_l", "hyper_r");
    key("return", "return", "enter");
    key("kp_enter", "kp_enter");
    key("tab", "tab");
    key("escape", "escape", "esc");
    key("space", "space", "spacebar");
    key("backspace", "backspace");
    key("delete", "delete", "del", "kp_delete");
    key("insert", "insert", "ins", "kp_insert");
    key("home", "home", "kp_home");
    key("end", "end", "kp_end");
    key("pageup", "prior", "page_up", "pageup", "pgup", "kp_prior", "kp_page_up");
    key("pagedown", "next", "page_down", "pagedown", "pgdn", "kp_next", "kp_page_down");
    key("up", "up", "arrowup", "kp_up");
    key("down", "down", "arrowdown", "kp_down");
    key("left", "left", "arrowleft", "kp_left");
    key("right", "right", "arrowright", "kp_right");
    key("capslock", "caps_lock", "capslock");
    key("numlock", "num_lock", "numlock");
    key("scrolllock", "scroll_lock", "scrolllock");
    key("pause", "pause", "break");
    key("printscreen", "print", "printscreen", "prtsc");
    key("menu", "menu", "apps", "contextmenu");
    key("kp_add", "kp_add", "kp_plus");
    key("kp_subtract", "kp_subtract", "kp_minus");
    key("kp_multiply", "kp_multiply");
    key("kp_divide", "kp_divide");
    key("kp_decimal", "kp_decimal");
    for (int i = 0; i <= 9; i++) {
      key("kp_" + i, "kp_" + i);
    }
    for (int i = 1; i <= 12; i++) {
      key("f" + i, "f" + i);
    }
    // X keysym names of printable characters; the combo parser splits on '+', so '+' is "plus".
    key("plus", "plus", "+");
    String[][] punctuation = {
        {"exclam", "!"}, {"quotedbl", "\""}, {"numbersign", "#"}, {"dollar", "$"}, {"percent", "%"},
        {"ampersand", "&"}, {"apostrophe", "'"}, {"quoteright", "'"}, {"parenleft", "("}, {"parenright", ")"},
        {"asterisk", "*"}, {"comma", ","}, {"minus", "-"}, {"period", "."}, {"slash", "/"}, {"colon", ":"},
        {"semicolon", ";"}, {"less", "<"}, {"equal", "="}, {"greater", ">"}, {"question", "?"}, {"at", "@"},
        {"bracketleft", "["}, {"backslash", "\\"}, {"bracketright", "]"}, {"asciicircum", "^"},
        {"underscore", "_"}, {"grave", "`"}, {"quoteleft", "`"}, {"braceleft", "{"}, {"bar", "|"},
        {"braceright", "}"}, {"asciitilde", "~"}};
    for (String[] p : punctuation) {
      KEYS.put(p[0], p[1]);
    }
  }

  private KeyNames() {}

  /**
   * The ACI combos of an xdotool key string, one per space-separated group: {@code "ctrl+a Delete"}
   * is two presses, {@code ctrl+a} then {@code delete}.
   */
  static List<String> fromXdotool(String keys) {
    List<String> combos = new ArrayList<>();
    for (String group : keys.strip().split("\\s+")) {
      if (group.isEmpty()) {
        continue;
      }
      List<String> parts = new ArrayList<>();
      for (String p : group.split("\\+")) {
        if (!p.isEmpty()) {
          parts.add(p);
        }
      }
      // "+" alone and "ctrl++" name the plus key itself: the split has eaten it.
      if (group.equals("+") || group.endsWith("++")) {
        parts.add("+");
      }
      combos.add(combo(parts, "xdotool"));
    }
    if (combos.isEmpty()) {
      throw new ToolCallException(ToolCallException.Reason.MISSING_FIELD, "key needs text naming a key, such as "
          + "\"Return\" or \"ctrl+s\"");
    }
    return combos;
  }

  /** The ACI combo of an OpenAI keypress: all keys pressed together, modifiers first. */
  static String fromOpenAi(List<String> keys) {
    if (keys.isEmpty()) {
      throw new ToolCallException(ToolCallException.Reason.MISSING_FIELD, "keypress needs at least one key in keys");
    }
    return combo(keys, "OpenAI");
  }

  private static String combo(List<String> names, String dialect) {
    List<String> modifiers = new ArrayList<>();
    List<String> rest = new ArrayList<>();
    for (String n : names) {
      String lower = n.strip().toLowerCase(Locale.ROOT);
      String mod = MODIFIERS.get(lower);
      if (mod != null) {
        if (!modifiers.contains(mod)) {
          modifiers.add(mod);
        }
      } else {
        rest.add(keyName(n.strip(), dialect));
      }
    }
    if (rest.size() > 1) {
      throw new ToolCallException(ToolCallException.Reason.INVALID_VALUE, "ACI presses one key per combo, with any "
          + "modifiers held: " + String.join("+", names) + " names " + rest.size() + " keys (" + String.join(", ", rest)
          + ")");
    }
    if (rest.isEmpty()) {
      // A lone modifier is pressed as the key itself (xdotool "shift" taps Shift).
      String key = modifiers.remove(modifiers.size() - 1);
      rest.add(key);
    }
    List<String> all = new ArrayList<>(modifiers);
    all.addAll(rest);
    return String.join("+", all);
  }

  private static String keyName(String name, String dialect) {
    if (name.codePointCount(0, name.length()) == 1) {
      // One character: the key that types it. A letter is lower-cased because ACI reads an
      // upper-case letter as shift+letter, and both vendors mean the key, not the capital.
      String mapped = KEYS.get(name);
      if (mapped != null) {
        return mapped;
      }
      int cp = name.codePointAt(0);
      return Character.isLetter(cp) ? name.toLowerCase(Locale.ROOT) : name;
    }
    String mapped = KEYS.get(name.toLowerCase(Locale.ROOT));
    if (mapped == null) {
      throw new ToolCallException(ToolCallException.Reason.UNKNOWN_KEY, "unknown key name \"" + name + "\" ("
          + ("xdotool".equals(dialect) ? "xdotool keysym names such as Return, Page_Down, KP_0, F5, ctrl, alt, super"
              : "names such as ENTER, ESC, ARROWUP, PAGEDOWN, CTRL, ALT, SHIFT, CMD, F5") + ")");
    }
    return mapped;
  }

  private static void modifier(String aci, String... names) {
    for (String n : names) {
      MODIFIERS.put(n, aci);
    }
  }

  private static void key(String aci, String... names) {
    for (String n : names) {
      KEYS.put(n, aci);
    }
  }
}
