package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/** Null-tolerant reads from provider JSON, and the canonical timestamp format. */
final class Json {
  private static final DateTimeFormatter CANONICAL =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private Json() {}

  /** Text of {@code node.field}, or null when absent, null or not a string. */
  static String str(JsonNode node, String field) {
    if (node == null) {
      return null;
    }
    JsonNode v = node.get(field);
    return v != null && v.isTextual() ? v.asText() : null;
  }

  static JsonNode obj(JsonNode node, String field) {
    if (node == null) {
      return null;
    }
    JsonNode v = node.get(field);
    return v != null && v.isObject() ? v : null;
  }

  static long lng(JsonNode node, String field) {
    if (node == null) {
      return 0;
    }
    JsonNode v = node.get(field);
    return v != null && v.isNumber() ? v.asLong() : 0;
  }

  static Long lngOrNull(JsonNode node, String field) {
    if (node == null) {
      return null;
    }
    JsonNode v = node.get(field);
    return v != null && v.isNumber() ? v.asLong() : null;
  }

  static boolean bool(JsonNode node, String field) {
    if (node == null) {
      return false;
    }
    JsonNode v = node.get(field);
    return v != null && v.isBoolean() && v.asBoolean();
  }

  /**
   * The canonical form of a provider timestamp: UTC with milliseconds, so that string order is
   * time order. Unparseable values become null.
   */
  static String timestamp(String raw) {
    if (raw == null) {
      return null;
    }
    try {
      return CANONICAL.format(Instant.parse(raw));
    } catch (DateTimeParseException e) {
      try {
        return CANONICAL.format(OffsetDateTime.parse(raw).toInstant());
      } catch (DateTimeParseException e2) {
        return null;
      }
    }
  }

  static String timestampMillis(long epochMillis) {
    return CANONICAL.format(Instant.ofEpochMilli(epochMillis));
  }

  /** Compact JSON text of a node, or null. */
  static String compact(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return null;
    }
    return node.toString();
  }
}
