package dev.agentdesk.aci.wire;

import dev.agentdesk.aci.WireException;
import dev.agentdesk.aci.WireException.Reason;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Field checks shared by the record constructors. They raise the same {@link WireException}
 * reasons the JSON decoder raises, with the field's JSON pointer relative to the record, so a
 * record can never hold a value the schema would reject.
 */
final class Check {
  private Check() {}

  static <T> T required(T value, String field) {
    if (value == null) {
      throw new WireException(Reason.MISSING_FIELD, "/" + field, "required field is absent");
    }
    return value;
  }

  static String nonEmpty(String value, String field) {
    if (value != null && value.isEmpty()) {
      throw new WireException(Reason.INVALID_VALUE, "/" + field, "must not be empty (minLength 1)");
    }
    return value;
  }

  static Integer atLeast(Integer value, long min, String field) {
    if (value != null && value < min) {
      throw new WireException(Reason.INVALID_VALUE, "/" + field, "must be >= " + min + ", got " + value);
    }
    return value;
  }

  static Long atLeast(Long value, long min, String field) {
    if (value != null && value < min) {
      throw new WireException(Reason.INVALID_VALUE, "/" + field, "must be >= " + min + ", got " + value);
    }
    return value;
  }

  /** A payload offset or length: negative is its own reason so frame errors stay distinguishable. */
  static void nonNegativeRange(long value, String field) {
    if (value < 0) {
      throw new WireException(Reason.NEGATIVE_RANGE, "/" + field, "must be >= 0, got " + value);
    }
  }

  static Integer between(Integer value, int min, int max, String field) {
    if (value != null && (value < min || value > max)) {
      throw new WireException(Reason.INVALID_VALUE, "/" + field,
          "must be within " + min + ".." + max + ", got " + value);
    }
    return value;
  }

  /** JSON has no NaN or infinity, so a record must not hold one either. */
  static Double finite(Double value, String field) {
    if (value != null && !Double.isFinite(value)) {
      throw new WireException(Reason.INVALID_VALUE, "/" + field, "must be a finite number, got " + value);
    }
    return value;
  }

  static double finite(double value, String field) {
    return finite(Double.valueOf(value), field);
  }

  static Double between(Double value, double min, double max, String field) {
    finite(value, field);
    if (value != null && (value < min || value > max)) {
      throw new WireException(Reason.INVALID_VALUE, "/" + field,
          "must be within " + min + ".." + max + ", got " + value);
    }
    return value;
  }

  static Double atLeast(Double value, double min, String field) {
    finite(value, field);
    if (value != null && value < min) {
      throw new WireException(Reason.INVALID_VALUE, "/" + field, "must be >= " + min + ", got " + value);
    }
    return value;
  }

  /** An immutable copy, or null for an absent list; null elements are refused. */
  static <T> List<T> list(List<T> value, String field) {
    if (value == null) {
      return null;
    }
    for (int i = 0; i < value.size(); i++) {
      if (value.get(i) == null) {
        throw new WireException(Reason.WRONG_TYPE, "/" + field + "/" + i, "list element must not be null");
      }
    }
    return List.copyOf(value);
  }

  static <T> List<T> nonEmptyList(List<T> value, String field) {
    List<T> copy = list(value, field);
    if (copy != null && copy.isEmpty()) {
      throw new WireException(Reason.INVALID_VALUE, "/" + field, "must have at least one item (minItems 1)");
    }
    return copy;
  }

  static Map<String, String> map(Map<String, String> value, String field) {
    if (value == null) {
      return null;
    }
    for (Map.Entry<String, String> e : value.entrySet()) {
      if (e.getKey() == null || e.getValue() == null) {
        throw new WireException(Reason.WRONG_TYPE, "/" + field, "map keys and values must not be null");
      }
    }
    return Map.copyOf(value);
  }

  static void matches(String value, Pattern pattern, String field, String what) {
    if (value != null && !pattern.matcher(value).matches()) {
      throw new WireException(Reason.INVALID_VALUE, "/" + field, "must be " + what + ", got \"" + value + "\"");
    }
  }

  /** A broken {@code allOf}/{@code if}/{@code then} rule of the schema. */
  static void rule(boolean holds, String field, String message) {
    if (!holds) {
      throw new WireException(Reason.RULE_VIOLATION, field.isEmpty() ? "" : "/" + field, message);
    }
  }
}
