package dev.agentdesk.aci.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.aci.WireException;
import dev.agentdesk.aci.WireException.Reason;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * A read cursor over one JSON object with its JSON-pointer path, applying the schema's type rules
 * field by field. A closed object ({@code additionalProperties:false}) refuses any field outside
 * its declared set, naming the field.
 */
final class JsonIn {
  private final ObjectNode node;
  private final String path;

  private JsonIn(ObjectNode node, String path) {
    this.node = node;
    this.path = path;
  }

  /** An object whose fields must all be among {@code declared}. */
  static JsonIn closed(JsonNode node, String path, Set<String> declared) {
    JsonIn in = open(node, path);
    Iterator<String> names = in.node.fieldNames();
    while (names.hasNext()) {
      String name = names.next();
      if (!declared.contains(name)) {
        throw new WireException(Reason.UNKNOWN_FIELD, path + "/" + escape(name), "unknown field \"" + name + "\"");
      }
    }
    return in;
  }

  /** An object that admits undeclared fields (they are ignored). */
  static JsonIn open(JsonNode node, String path) {
    if (node == null || !node.isObject()) {
      throw new WireException(Reason.WRONG_TYPE, path, "must be an object, got " + kind(node));
    }
    return new JsonIn((ObjectNode) node, path);
  }

  String path() {
    return path;
  }

  String at(String field) {
    return path + "/" + escape(field);
  }

  boolean has(String field) {
    return node.has(field);
  }

  JsonNode raw(String field) {
    return node.get(field);
  }

  // ---- scalars -------------------------------------------------------------------------------

  String string(String field) {
    JsonNode v = node.get(field);
    if (v == null) {
      return null;
    }
    if (!v.isTextual()) {
      throw wrongType(field, "a string", v);
    }
    return v.textValue();
  }

  String requiredString(String field) {
    return required(field, string(field));
  }

  Boolean bool(String field) {
    JsonNode v = node.get(field);
    if (v == null) {
      return null;
    }
    if (!v.isBoolean()) {
      throw wrongType(field, "a boolean", v);
    }
    return v.booleanValue();
  }

  boolean requiredBool(String field) {
    return required(field, bool(field));
  }

  Double number(String field) {
    JsonNode v = node.get(field);
    if (v == null) {
      return null;
    }
    return numberValue(v, at(field));
  }

  double requiredNumber(String field) {
    return required(field, number(field));
  }

  /** A JSON integer; per draft 2020-12 a number with a zero fractional part (e.g. 2.0) is one. */
  Long integer(String field) {
    JsonNode v = node.get(field);
    if (v == null) {
      return null;
    }
    return integerValue(v, at(field));
  }

  long requiredInteger(String field) {
    return required(field, integer(field));
  }

  Integer int32(String field) {
    Long v = integer(field);
    if (v == null) {
      return null;
    }
    if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
      throw new WireException(Reason.INVALID_VALUE, at(field), "integer out of the supported 32-bit range: " + v);
    }
    return v.intValue();
  }

  /**
   * An integer the schema bounds below only (a pixel cap such as {@code max_long_edge}) that the
   * model keeps as an {@code int}: any value beyond the int range caps nothing more than {@link
   * Integer#MAX_VALUE} does, so it saturates instead of being rejected — the decoder accepts every
   * value the schema accepts (no 32- or 64-bit limit). Bounds below stay with the constructor.
   */
  Integer saturatedInt(String field) {
    JsonNode v = node.get(field);
    if (v == null) {
      return null;
    }
    if (v.isNumber()) {
      BigDecimal d = v.decimalValue();
      if (d.signum() == 0 || d.stripTrailingZeros().scale() <= 0) {
        if (d.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0) {
          return Integer.MAX_VALUE;
        }
        if (d.compareTo(BigDecimal.valueOf(Integer.MIN_VALUE)) < 0) {
          return Integer.MIN_VALUE;
        }
        return d.intValueExact();
      }
    }
    return (int) integerValue(v, at(field)); // not an integer: integerValue throws the typed error
  }

  /** A required field whose value may be JSON null ({@code "type": ["integer", "null"]}). */
  Long requiredNullableInteger(String field) {
    JsonNode v = node.get(field);
    if (v == null) {
      throw missing(field);
    }
    return v.isNull() ? null : integerValue(v, at(field));
  }

  /** An optional field whose value may be JSON null; absent and null both give null. */
  Long nullableInteger(String field) {
    JsonNode v = node.get(field);
    return v == null || v.isNull() ? null : integerValue(v, at(field));
  }

  <E extends Enum<E> & WireEnum> E enumValue(String field, Class<E> type) {
    JsonNode v = node.get(field);
    if (v == null) {
      return null;
    }
    return enumOf(v, type, at(field));
  }

  <E extends Enum<E> & WireEnum> E requiredEnum(String field, Class<E> type) {
    return required(field, enumValue(field, type));
  }

  /** A field fixed by the schema to one JSON value ({@code const}). */
  void constant(String field, JsonNode expected, boolean required, Reason reasonIfDifferent) {
    JsonNode v = node.get(field);
    if (v == null) {
      if (required) {
        throw missing(field);
      }
      return;
    }
    if (!sameJson(v, expected)) {
      throw new WireException(reasonIfDifferent, at(field), "must be " + expected + ", got " + v);
    }
  }

  // ---- composites ----------------------------------------------------------------------------

  <T> T object(String field, BiFunction<JsonNode, String, T> decoder) {
    JsonNode v = node.get(field);
    return v == null ? null : decoder.apply(v, at(field));
  }

  <T> T requiredObject(String field, BiFunction<JsonNode, String, T> decoder) {
    return required(field, object(field, decoder));
  }

  <T> List<T> list(String field, BiFunction<JsonNode, String, T> item) {
    JsonNode v = node.get(field);
    if (v == null) {
      return null;
    }
    if (!v.isArray()) {
      throw wrongType(field, "an array", v);
    }
    List<T> out = new ArrayList<>(v.size());
    for (int i = 0; i < v.size(); i++) {
      out.add(item.apply(v.get(i), at(field) + "/" + i));
    }
    return out;
  }

  <T> List<T> requiredList(String field, BiFunction<JsonNode, String, T> item) {
    return required(field, list(field, item));
  }

  List<String> strings(String field) {
    return list(field, JsonIn::stringValue);
  }

  /** An object whose every value is a string ({@code additionalProperties: {type: string}}). */
  Map<String, String> stringMap(String field) {
    JsonNode v = node.get(field);
    if (v == null) {
      return null;
    }
    if (!v.isObject()) {
      throw wrongType(field, "an object", v);
    }
    Map<String, String> out = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> it = v.properties().iterator();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      out.put(e.getKey(), stringValue(e.getValue(), at(field) + "/" + escape(e.getKey())));
    }
    return out;
  }

  // ---- value-level helpers (used for array items) --------------------------------------------

  static String stringValue(JsonNode v, String path) {
    if (!v.isTextual()) {
      throw new WireException(Reason.WRONG_TYPE, path, "must be a string, got " + kind(v));
    }
    return v.textValue();
  }

  static double numberValue(JsonNode v, String path) {
    if (!v.isNumber()) {
      throw new WireException(Reason.WRONG_TYPE, path, "must be a number, got " + kind(v));
    }
    double d = v.doubleValue();
    if (!Double.isFinite(d)) {
      throw new WireException(Reason.INVALID_VALUE, path, "number out of the supported range: " + v);
    }
    return d;
  }

  static long integerValue(JsonNode v, String path) {
    if (!v.isNumber()) {
      throw new WireException(Reason.WRONG_TYPE, path, "must be an integer, got " + kind(v));
    }
    if (v.isFloatingPointNumber() && !Double.isFinite(v.doubleValue())) {
      // "1e999" reads as an infinite double, which has no decimal value (NumberFormatException)
      throw new WireException(Reason.INVALID_VALUE, path, "integer out of the supported 64-bit range: " + v);
    }
    BigDecimal d = v.decimalValue();
    if (d.signum() != 0 && d.stripTrailingZeros().scale() > 0) {
      throw new WireException(Reason.WRONG_TYPE, path, "must be an integer, got " + v);
    }
    try {
      return d.longValueExact();
    } catch (ArithmeticException e) {
      throw new WireException(Reason.INVALID_VALUE, path, "integer out of the supported 64-bit range: " + v);
    }
  }

  static <E extends Enum<E> & WireEnum> E enumOf(JsonNode v, Class<E> type, String path) {
    if (!v.isTextual()) {
      throw new WireException(Reason.WRONG_TYPE, path, "must be a string, got " + kind(v));
    }
    E e = WireEnum.lookup(type, v.textValue());
    if (e == null) {
      throw new WireException(Reason.INVALID_VALUE, path,
          "\"" + v.textValue() + "\" is not one of " + wireNames(type));
    }
    return e;
  }

  static Scope scopeValue(JsonNode v, String path) {
    String s = stringValue(v, path);
    try {
      return new Scope(s);
    } catch (WireException e) {
      throw e.under(path);
    }
  }

  private static <E extends Enum<E> & WireEnum> List<String> wireNames(Class<E> type) {
    List<String> names = new ArrayList<>();
    for (E e : type.getEnumConstants()) {
      names.add(e.wire());
    }
    return names;
  }

  /** JSON equality where 0 and 0.0 are the same number, as in JSON Schema's {@code const}. */
  private static boolean sameJson(JsonNode a, JsonNode b) {
    if (a.isNumber() && b.isNumber()) {
      return a.decimalValue().compareTo(b.decimalValue()) == 0;
    }
    return a.equals(b);
  }

  private <T> T required(String field, T value) {
    if (value == null) {
      throw missing(field);
    }
    return value;
  }

  WireException missing(String field) {
    return new WireException(Reason.MISSING_FIELD, at(field), "required field \"" + field + "\" is absent");
  }

  private WireException wrongType(String field, String expected, JsonNode v) {
    return new WireException(Reason.WRONG_TYPE, at(field), "must be " + expected + ", got " + kind(v));
  }

  static String kind(JsonNode v) {
    if (v == null || v.isMissingNode()) {
      return "nothing";
    }
    return switch (v.getNodeType()) {
      case STRING -> "a string";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      case NULL -> "null";
      case ARRAY -> "an array";
      case OBJECT, POJO -> "an object";
      default -> v.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    };
  }

  /** JSON-pointer escaping of one reference token. */
  static String escape(String token) {
    return token.replace("~", "~0").replace("/", "~1");
  }
}
