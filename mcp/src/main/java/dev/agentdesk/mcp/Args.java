package dev.agentdesk.mcp;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A tool call's arguments, read with the checks its input schema states. Every bad value is a
 * {@link PortException} naming the argument, so the agent sees what to change; unknown arguments
 * are refused too (a misspelt {@code limt} would otherwise be silently ignored).
 */
final class Args {
  private final String tool;
  private final Map<String, Object> values;

  Args(String tool, Map<String, Object> values, Set<String> known) {
    this.tool = tool;
    this.values = values == null ? Map.of() : values;
    for (String name : this.values.keySet()) {
      if (!known.contains(name)) {
        throw bad("unknown argument '" + name + "'" + (known.isEmpty() ? " (this tool takes none)"
            : "; it takes " + String.join(", ", known.stream().sorted().toList())));
      }
    }
  }

  String string(String name) {
    String s = optString(name);
    if (s == null || s.isBlank()) {
      throw bad(name + " is required");
    }
    return s;
  }

  String optString(String name) {
    Object v = values.get(name);
    if (v == null) {
      return null;
    }
    if (!(v instanceof String s)) {
      throw bad(name + " must be a string, got " + describe(v));
    }
    return s;
  }

  /** A string that is one of {@code allowed}, or {@code dflt} when absent. */
  String choice(String name, List<String> allowed, String dflt) {
    String s = optString(name);
    if (s == null || s.isBlank()) {
      return dflt;
    }
    if (!allowed.contains(s)) {
      throw bad(name + " must be one of " + String.join(", ", allowed) + ", got '" + s + "'");
    }
    return s;
  }

  Integer optInt(String name, int min, int max) {
    Object v = values.get(name);
    if (v == null) {
      return null;
    }
    if (!(v instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue())) {
      throw bad(name + " must be a whole number, got " + describe(v));
    }
    long l = n.longValue();
    if (l < min || l > max) {
      throw bad(name + " must be between " + min + " and " + max + ", got " + l);
    }
    return (int) l;
  }

  int intOr(String name, int min, int max, int dflt) {
    Integer v = optInt(name, min, max);
    return v == null ? dflt : v;
  }

  Double optNumber(String name) {
    Object v = values.get(name);
    if (v == null) {
      return null;
    }
    if (!(v instanceof Number n) || !Double.isFinite(n.doubleValue())) {
      throw bad(name + " must be a number, got " + describe(v));
    }
    return n.doubleValue();
  }

  boolean flag(String name) {
    Object v = values.get(name);
    if (v == null) {
      return false;
    }
    if (!(v instanceof Boolean b)) {
      throw bad(name + " must be true or false, got " + describe(v));
    }
    return b;
  }

  Boolean optFlag(String name) {
    return values.get(name) == null ? null : flag(name);
  }

  /** A non-empty array of strings. */
  List<String> strings(String name, boolean required) {
    Object v = values.get(name);
    if (v == null) {
      if (required) {
        throw bad(name + " is required: an array of strings, e.g. [\"bash\", \"-l\"]");
      }
      return null;
    }
    if (!(v instanceof List<?> list)) {
      throw bad(name + " must be an array of strings, got " + describe(v));
    }
    List<String> out = new ArrayList<>();
    for (Object o : list) {
      if (!(o instanceof String s)) {
        throw bad(name + " must contain only strings, got " + describe(o));
      }
      out.add(s);
    }
    if (required && (out.isEmpty() || out.get(0).isBlank())) {
      throw bad(name + " must name a program first, e.g. [\"bash\"]");
    }
    return List.copyOf(out);
  }

  @SuppressWarnings("unchecked")
  Map<String, Object> object(String name) {
    Object v = values.get(name);
    if (v == null) {
      throw bad(name + " is required");
    }
    if (!(v instanceof Map<?, ?> m)) {
      throw bad(name + " must be an object, got " + describe(v));
    }
    return (Map<String, Object>) m;
  }

  boolean has(String name) {
    return values.get(name) != null;
  }

  PortException bad(String message) {
    return PortException.badArguments(tool + ": " + message);
  }

  private static String describe(Object v) {
    if (v instanceof String s) {
      return "the string '" + (s.length() > 40 ? s.substring(0, 40) + "…" : s) + "'";
    }
    if (v instanceof List<?>) {
      return "an array";
    }
    if (v instanceof Map<?, ?>) {
      return "an object";
    }
    return String.valueOf(v);
  }
}
