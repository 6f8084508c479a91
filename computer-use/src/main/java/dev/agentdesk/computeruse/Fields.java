package dev.agentdesk.computeruse;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/** Reads the fields of a tool call's input, each failure a {@link ToolCallException} naming the field. */
final class Fields {
  private final JsonNode input;
  private final String action;

  Fields(JsonNode input, String action) {
    this.input = input;
    this.action = action;
  }

  boolean has(String field) {
    JsonNode v = input.get(field);
    return v != null && !v.isNull();
  }

  String text(String field) {
    JsonNode v = required(field);
    if (!v.isTextual()) {
      throw invalid(field, "must be a string");
    }
    return v.asText();
  }

  double number(String field) {
    JsonNode v = required(field);
    if (!v.isNumber() || !Double.isFinite(v.asDouble())) {
      throw invalid(field, "must be a number");
    }
    return v.asDouble();
  }

  long integer(String field) {
    double d = number(field);
    if (d != Math.rint(d)) {
      throw invalid(field, "must be a whole number, got " + input.get(field));
    }
    return (long) d;
  }

  /** An {@code [x, y]} pair of whole numbers within the declared display. */
  long[] coordinate(String field, DisplaySize display) {
    JsonNode v = required(field);
    if (!v.isArray() || v.size() != 2 || !v.get(0).isNumber() || !v.get(1).isNumber()) {
      throw invalid(field, "must be [x, y], got " + v);
    }
    double x = v.get(0).asDouble();
    double y = v.get(1).asDouble();
    if (x != Math.rint(x) || y != Math.rint(y)) {
      throw invalid(field, "must be whole pixels, got " + v);
    }
    return inside(field, (long) x, (long) y, v.toString(), display);
  }

  /** An OpenAI point: {@code x} and {@code y} fields (of this object) within the declared display. */
  static long[] point(JsonNode node, String where, String action, DisplaySize display) {
    Fields f = new Fields(node, action);
    long x = f.integer("x");
    long y = f.integer("y");
    return f.inside(where, x, y, "{x: " + x + ", y: " + y + "}", display);
  }

  private long[] inside(String field, long x, long y, String shown, DisplaySize display) {
    if (x < 0 || y < 0 || x >= display.width() || y >= display.height()) {
      throw invalid(field, shown + " is outside the " + display + " display");
    }
    return new long[] {x, y};
  }

  List<String> strings(String field) {
    JsonNode v = required(field);
    if (!v.isArray()) {
      throw invalid(field, "must be a list of strings");
    }
    List<String> out = new ArrayList<>();
    for (JsonNode e : v) {
      if (!e.isTextual()) {
        throw invalid(field, "must be a list of strings, got " + v);
      }
      out.add(e.asText());
    }
    return out;
  }

  JsonNode array(String field) {
    JsonNode v = required(field);
    if (!v.isArray()) {
      throw invalid(field, "must be a list");
    }
    return v;
  }

  private JsonNode required(String field) {
    JsonNode v = input.get(field);
    if (v == null || v.isNull()) {
      throw new ToolCallException(ToolCallException.Reason.MISSING_FIELD, action + " needs " + field);
    }
    return v;
  }

  ToolCallException invalid(String field, String why) {
    return new ToolCallException(ToolCallException.Reason.INVALID_VALUE, action + ": " + field + " " + why);
  }
}
