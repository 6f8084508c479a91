package dev.agentdesk.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** The module's JSON mapper and the few tree edits the tools need. */
final class Jsons {
  static final ObjectMapper MAPPER = new ObjectMapper();

  private Jsons() {}

  static ObjectNode object() {
    return MAPPER.createObjectNode();
  }

  static ArrayNode array() {
    return MAPPER.createArrayNode();
  }

  static JsonNode tree(Object value) {
    return MAPPER.valueToTree(value);
  }

  /**
   * The same tree without null-valued fields, at every depth: a field the output schema lists as
   * optional is absent rather than null, so no schema needs a "string or null" union.
   */
  static JsonNode withoutNulls(JsonNode node) {
    if (node == null) {
      return null;
    }
    if (node.isObject()) {
      ObjectNode out = MAPPER.createObjectNode();
      Iterator<Map.Entry<String, JsonNode>> it = node.fields();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!e.getValue().isNull()) {
          out.set(e.getKey(), withoutNulls(e.getValue()));
        }
      }
      return out;
    }
    if (node.isArray()) {
      ArrayNode out = MAPPER.createArrayNode();
      for (JsonNode n : node) {
        if (!n.isNull()) {
          out.add(withoutNulls(n));
        }
      }
      return out;
    }
    return node;
  }

  /** The last {@code n} elements of an array of strings. */
  static List<String> lastStrings(JsonNode array, int n) {
    List<String> all = new ArrayList<>();
    if (array != null && array.isArray()) {
      array.forEach(x -> all.add(x.asText()));
    }
    return all.subList(Math.max(0, all.size() - n), all.size());
  }
}
