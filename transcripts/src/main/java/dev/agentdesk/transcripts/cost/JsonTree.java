package dev.agentdesk.transcripts.cost;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/**
 * Reads a JSON document into Jackson's tree with the streaming parser alone. Why not
 * {@code new ObjectMapper().readTree}: building an ObjectMapper loads and initialises a few hundred
 * classes (date formats, locale data, type factory), ~55 ms of every short report's start here
 * (ADR 0039), and a price table needs none of it.
 */
final class JsonTree {
  private static final JsonFactory FACTORY = new JsonFactory();
  private static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(false);

  private JsonTree() {}

  /** The document's root, or null when {@code json} holds no value. */
  static JsonNode read(byte[] json) throws IOException {
    try (JsonParser p = FACTORY.createParser(json)) {
      JsonToken first = p.nextToken();
      if (first == null) {
        return null;
      }
      JsonNode root = value(p, first);
      if (p.nextToken() != null) {
        throw new IOException("more than one JSON value (at " + p.getCurrentLocation().getCharOffset() + ")");
      }
      return root;
    }
  }

  private static JsonNode value(JsonParser p, JsonToken t) throws IOException {
    switch (t) {
      case START_OBJECT: {
        ObjectNode o = NODES.objectNode();
        for (JsonToken n = p.nextToken(); n != JsonToken.END_OBJECT; n = p.nextToken()) {
          String name = p.currentName();
          o.set(name, value(p, p.nextToken()));
        }
        return o;
      }
      case START_ARRAY: {
        ArrayNode a = NODES.arrayNode();
        for (JsonToken n = p.nextToken(); n != JsonToken.END_ARRAY; n = p.nextToken()) {
          a.add(value(p, n));
        }
        return a;
      }
      case VALUE_STRING:
        return NODES.textNode(p.getText());
      case VALUE_NUMBER_INT:
        switch (p.getNumberType()) {
          case INT:
            return NODES.numberNode(p.getIntValue());
          case LONG:
            return NODES.numberNode(p.getLongValue());
          default:
            return NODES.numberNode(p.getBigIntegerValue());
        }
      case VALUE_NUMBER_FLOAT:
        return NODES.numberNode(p.getDoubleValue());
      case VALUE_TRUE:
        return NODES.booleanNode(true);
      case VALUE_FALSE:
        return NODES.booleanNode(false);
      case VALUE_NULL:
        return NODES.nullNode();
      default:
        throw new IOException("unexpected " + t + " at " + p.getCurrentLocation().getCharOffset());
    }
  }
}
