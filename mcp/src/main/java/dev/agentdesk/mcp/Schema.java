package dev.agentdesk.mcp;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON Schema fragments for tool inputs and outputs, as the plain maps the SDK takes. Only the
 * keywords every validator reads the same way (type, properties, required, items, enum, minimum,
 * maximum, minLength, maxLength); absent values are left out rather than null, so no schema needs a
 * union type.
 */
final class Schema {
  private Schema() {}

  static Map<String, Object> string(String description) {
    return described(Map.of("type", "string"), description);
  }

  static Map<String, Object> string(String description, int minLength, int maxLength) {
    return described(Map.of("type", "string", "minLength", minLength, "maxLength", maxLength), description);
  }

  static Map<String, Object> oneOf(String description, List<String> values) {
    return described(Map.of("type", "string", "enum", List.copyOf(values)), description);
  }

  static Map<String, Object> integer(String description) {
    return described(Map.of("type", "integer"), description);
  }

  static Map<String, Object> integer(String description, long min, long max) {
    return described(Map.of("type", "integer", "minimum", min, "maximum", max), description);
  }

  static Map<String, Object> number(String description) {
    return described(Map.of("type", "number"), description);
  }

  static Map<String, Object> bool(String description) {
    return described(Map.of("type", "boolean"), description);
  }

  static Map<String, Object> array(String description, Map<String, Object> items) {
    return described(Map.of("type", "array", "items", items), description);
  }

  /** Any JSON object (a nested record whose own schema is documented elsewhere). */
  static Map<String, Object> anyObject(String description) {
    return described(Map.of("type", "object"), description);
  }

  /** An object with these properties, of which {@code required} must be present. */
  static Obj object() {
    return new Obj();
  }

  static final class Obj {
    private final Map<String, Object> properties = new LinkedHashMap<>();
    private final List<String> required = new ArrayList<>();

    Obj req(String name, Map<String, Object> schema) {
      properties.put(name, schema);
      required.add(name);
      return this;
    }

    Obj opt(String name, Map<String, Object> schema) {
      properties.put(name, schema);
      return this;
    }

    Map<String, Object> build() {
      return build(null);
    }

    Map<String, Object> build(String description) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("type", "object");
      m.put("properties", java.util.Collections.unmodifiableMap(new LinkedHashMap<>(properties)));
      if (!required.isEmpty()) {
        m.put("required", List.copyOf(required));
      }
      if (description != null) {
        m.put("description", description);
      }
      return java.util.Collections.unmodifiableMap(m);
    }
  }

  /** The property names an object schema declares. */
  @SuppressWarnings("unchecked")
  static java.util.Set<String> keys(Map<String, Object> objectSchema) {
    Object p = objectSchema.get("properties");
    return p == null ? java.util.Set.of() : ((Map<String, Object>) p).keySet();
  }

  private static Map<String, Object> described(Map<String, Object> base, String description) {
    if (description == null) {
      return base;
    }
    Map<String, Object> m = new LinkedHashMap<>(base);
    m.put("description", description);
    return java.util.Collections.unmodifiableMap(m);
  }
}
