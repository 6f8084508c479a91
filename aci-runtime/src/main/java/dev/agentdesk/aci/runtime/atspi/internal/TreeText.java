package dev.agentdesk.aci.runtime.atspi.internal;

import dev.agentdesk.aci.runtime.atspi.AtspiElement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Renders elements as {@code tree_text}.
 *
 * <p>Full form: a header line, optional {@code !} lines naming the limits the walk hit, one line
 * per element ({@code e<id> <role> [(states)] ["name"] [Value:"…"] [Actions:a,b]}) indented two
 * spaces per level, and a {@code focus:} trailer. Anonymous layout containers (an unnamed filler
 * or panel with no actions, value or focus) are left out of the text and their children take
 * their place; they stay in {@code elements}. Only states that change what an agent can do are
 * printed; the element's {@code states} list has all of them. Roles are printed in a compact
 * one-token form ({@code push_button} for AT-SPI's {@code push button}) so that a line splits on
 * spaces; {@code elements[].role} keeps AT-SPI's own name.
 *
 * <p>Diff form: the header with {@code diff_of}, {@code ~} lines for elements whose line changed,
 * {@code +} lines for new elements, one {@code - removed:} line with id ranges, or a no-change
 * notice, then the trailer.
 */
public final class TreeText {
  /** AT-SPI role names (as {@code GetRoleName} gives them) of layout-only containers. */
  private static final Set<String> ELIDABLE_ROLES = Set.of("filler", "panel", "unknown",
      "redundant object", "layered pane", "viewport", "invalid", "glass pane", "root pane");
  private static final List<String> SHOWN_STATES = List.of("active", "checked", "collapsed",
      "editable", "expanded", "focused", "indeterminate", "invalid_entry", "is_default", "modal",
      "pressed", "read_only", "required", "selected");

  private TreeText() {}

  /** What was shown for one revision: the line of every rendered element, in order. */
  public record Snapshot(long revision, Map<String, String> lines) {
    public Snapshot {
      lines = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(lines));
    }
  }

  /** Whether {@code e} gets its own line. */
  public static boolean rendered(AtspiElement e) {
    return !(ELIDABLE_ROLES.contains(e.role()) && e.name().isEmpty() && e.actions().isEmpty()
        && e.value().isEmpty() && !e.focused());
  }

  public static String line(AtspiElement e) {
    StringBuilder sb = new StringBuilder(48);
    sb.append(e.ref()).append(' ').append(compactRole(e.role()));
    List<String> shown = new ArrayList<>(4);
    for (String s : SHOWN_STATES) {
      if (e.hasState(s)) {
        shown.add(s);
      }
    }
    boolean interactive = !e.actions().isEmpty() || e.hasState("focusable")
        || e.hasState("editable");
    if (interactive && !e.hasState("sensitive")) {
      shown.add("disabled");
    }
    if (!shown.isEmpty()) {
      sb.append(" (").append(String.join(",", shown)).append(')');
    }
    if (!e.name().isEmpty()) {
      sb.append(' ');
      quote(sb, e.name());
    }
    if (e.value().isPresent()) {
      sb.append(" Value:");
      quote(sb, e.value().get());
    }
    if (!e.actions().isEmpty()) {
      sb.append(" Actions:").append(String.join(",", e.actions()));
    }
    return sb.toString();
  }

  /** The {@code tree_text} form of an AT-SPI role name: one token, spaces as underscores. */
  static String compactRole(String role) {
    return role.replace(' ', '_');
  }

  private static void quote(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> sb.append(c);
      }
    }
    sb.append('"');
  }

  public static String header(String app, String window, String windowRole, long revision,
      Optional<Long> diffOf) {
    StringBuilder sb = new StringBuilder("app: ").append(app.isEmpty() ? "(unnamed)" : app);
    sb.append(" | window: ");
    if (window.isEmpty() && windowRole.isEmpty()) {
      sb.append("(none active)");
    } else {
      quote(sb, window);
      if (!windowRole.isEmpty()) {
        sb.append(" (").append(compactRole(windowRole)).append(')');
      }
    }
    sb.append(" | revision: ").append(revision);
    diffOf.ifPresent(d -> sb.append(" | diff_of: ").append(d));
    return sb.toString();
  }

  public static String trailer(Optional<String> focus) {
    return "focus: " + focus.orElse("none");
  }

  /** The rendered lines of {@code elements} (parents before children), keyed by ref. */
  public static Snapshot snapshot(long revision, List<AtspiElement> elements) {
    Map<String, String> lines = new LinkedHashMap<>();
    for (AtspiElement e : elements) {
      if (rendered(e)) {
        lines.put(e.ref(), line(e));
      }
    }
    return new Snapshot(revision, lines);
  }

  /** The full form. {@code elements} must list parents before their children. */
  public static String full(String header, List<String> notes, List<AtspiElement> elements,
      Optional<String> focus) {
    Map<String, Integer> indentOf = new LinkedHashMap<>();
    StringBuilder sb = new StringBuilder(64 + elements.size() * 48);
    sb.append(header).append('\n');
    for (String n : notes) {
      sb.append("! ").append(n).append('\n');
    }
    for (AtspiElement e : elements) {
      int parentIndent = e.parentRef().map(p -> indentOf.getOrDefault(p, -1)).orElse(-1);
      int indent = rendered(e) ? parentIndent + 1 : parentIndent;
      indentOf.put(e.ref(), indent);
      if (rendered(e)) {
        sb.append("  ".repeat(Math.max(0, indent))).append(line(e)).append('\n');
      }
    }
    sb.append(trailer(focus));
    return sb.toString();
  }

  /** The diff body lines of {@code now} against {@code before} (without header and trailer). */
  public static List<String> diffLines(Snapshot before, Snapshot now) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, String> e : now.lines().entrySet()) {
      String old = before.lines().get(e.getKey());
      if (old == null) {
        out.add("+ " + e.getValue());
      } else if (!old.equals(e.getValue())) {
        out.add("~ " + e.getValue());
      }
    }
    TreeSet<Long> removed = new TreeSet<>();
    for (String ref : before.lines().keySet()) {
      if (!now.lines().containsKey(ref)) {
        removed.add(Long.parseLong(ref.substring(1)));
      }
    }
    if (!removed.isEmpty()) {
      out.add("- removed: " + ranges(removed));
    }
    return out;
  }

  public static String diff(String header, List<String> notes, List<String> body,
      long baseline, Optional<String> focus) {
    StringBuilder sb = new StringBuilder(header).append('\n');
    for (String n : notes) {
      sb.append("! ").append(n).append('\n');
    }
    if (body.isEmpty()) {
      sb.append("= no changes since revision ").append(baseline).append('\n');
    }
    for (String l : body) {
      sb.append(l).append('\n');
    }
    sb.append(trailer(focus));
    return sb.toString();
  }

  /** {@code e3-e5, e9} for ids 3, 4, 5, 9. */
  static String ranges(TreeSet<Long> ids) {
    StringBuilder sb = new StringBuilder();
    Long start = null;
    Long prev = null;
    for (long id : ids) {
      if (start == null) {
        start = id;
      } else if (id != prev + 1) {
        appendRange(sb, start, prev);
        start = id;
      }
      prev = id;
    }
    appendRange(sb, start, prev);
    return sb.toString();
  }

  private static void appendRange(StringBuilder sb, long from, long to) {
    if (sb.length() > 0) {
      sb.append(", ");
    }
    sb.append('e').append(from);
    if (to != from) {
      sb.append("-e").append(to);
    }
  }
}
