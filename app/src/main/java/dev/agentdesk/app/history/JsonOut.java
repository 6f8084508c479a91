package dev.agentdesk.app.history;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;

/**
 * The {@code --json} documents of the short history commands: Jackson's tree, written by
 * jackson-core's generator node by node. The same text as {@code ObjectMapper.writeValueAsString},
 * without building a mapper: ~30 ms of a report's start (ADR 0043). (A node's own {@code serialize}
 * needs the mapper's serializer provider.)
 */
final class JsonOut {
  private static final JsonFactory FACTORY = new JsonFactory();

  private JsonOut() {}

  static ObjectNode object() {
    return JsonNodeFactory.instance.objectNode();
  }

  static ArrayNode array() {
    return JsonNodeFactory.instance.arrayNode();
  }

  /** {@code node} as compact JSON text. */
  static String write(JsonNode node) {
    StringWriter text = new StringWriter();
    try (JsonGenerator g = FACTORY.createGenerator(text)) {
      write(g, node);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringWriter does not fail
    }
    return text.toString();
  }

  private static void write(JsonGenerator g, JsonNode n) throws IOException {
    switch (n.getNodeType()) {
      case OBJECT -> {
        g.writeStartObject();
        for (java.util.Iterator<java.util.Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
          java.util.Map.Entry<String, JsonNode> e = it.next();
          g.writeFieldName(e.getKey());
          write(g, e.getValue());
        }
        g.writeEndObject();
      }
      case ARRAY -> {
        g.writeStartArray();
        for (JsonNode c : n) {
          write(g, c);
        }
        g.writeEndArray();
      }
      case STRING -> g.writeString(n.textValue());
      case BOOLEAN -> g.writeBoolean(n.booleanValue());
      case NULL -> g.writeNull();
      case NUMBER -> {
        if (n.isInt() || n.isShort()) {
          g.writeNumber(n.intValue());
        } else if (n.isLong()) {
          g.writeNumber(n.longValue());
        } else if (n.isFloat()) {
          g.writeNumber(n.floatValue());
        } else if (n.isDouble()) {
          g.writeNumber(n.doubleValue());
        } else if (n.isBigDecimal()) {
          g.writeNumber(n.decimalValue());
        } else {
          g.writeNumber(n.bigIntegerValue());
        }
      }
      default -> throw new IllegalArgumentException("no JSON text for a " + n.getNodeType() + " node");
    }
  }
}
