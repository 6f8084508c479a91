package dev.agentdesk.aci.runtime.atspi.internal;

import java.util.ArrayList;
import java.util.List;

/** AT-SPI's state bit set ({@code GetState}: two 32-bit words) and the names of its bits. */
public final class AtspiStates {
  // AtspiStateType order: index = bit number across the two words.
  private static final String[] NAMES = {
    "invalid", "active", "armed", "busy", "checked", "collapsed", "defunct", "editable",
    "enabled", "expandable", "expanded", "focusable", "focused", "has_tooltip", "horizontal",
    "iconified", "modal", "multi_line", "multiselectable", "opaque", "pressed", "resizable",
    "selectable", "selected", "sensitive", "showing", "single_line", "stale", "transient",
    "vertical", "visible", "manages_descendants", "indeterminate", "required", "truncated",
    "animated", "invalid_entry", "supports_autocompletion", "selectable_text", "is_default",
    "visited", "checkable", "has_popup", "read_only"
  };

  public static final int ACTIVE = 1;
  public static final int DEFUNCT = 6;
  public static final int ENABLED = 8;
  public static final int FOCUSED = 12;
  public static final int SENSITIVE = 24;
  public static final int SHOWING = 25;
  public static final int VISIBLE = 30;

  private AtspiStates() {}

  /** Packs the two words of a {@code GetState} reply into one bit set. */
  public static long fromWords(List<Long> words) {
    long low = words.size() > 0 ? words.get(0) & 0xffffffffL : 0;
    long high = words.size() > 1 ? words.get(1) & 0xffffffffL : 0;
    return low | (high << 32);
  }

  public static boolean has(long bits, int state) {
    return (bits >>> state & 1L) != 0;
  }

  /** The names of the set bits, in AT-SPI order. */
  public static List<String> names(long bits) {
    List<String> out = new ArrayList<>();
    for (int i = 1; i < NAMES.length; i++) {
      if (has(bits, i)) {
        out.add(NAMES[i]);
      }
    }
    return out;
  }
}
