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
    if (isCanonical(raw)) {
      // Already in the canonical form (what both providers write): parsing and formatting it again
      // would return the same text, at a cost that showed up as a third of the parse time.
      return raw;
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

  /**
   * True for {@code yyyy-MM-ddTHH:mm:ss.SSSZ} with a year from 1000, a day of month up to 28 and no
   * leap second: values that certainly parse and that the canonical formatter writes back unchanged.
   * Everything else takes the parsing path.
   */
  static boolean isCanonical(String s) {
    if (s.length() != 24 || s.charAt(4) != '-' || s.charAt(7) != '-' || s.charAt(10) != 'T' || s.charAt(13) != ':'
        || s.charAt(16) != ':' || s.charAt(19) != '.' || s.charAt(23) != 'Z') {
      return false;
    }
    int[] digits = {0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 22};
    for (int i : digits) {
      char ch = s.charAt(i);
      if (ch < '0' || ch > '9') {
        return false;
      }
    }
    int month = two(s, 5);
    int day = two(s, 8);
    return s.charAt(0) != '0' && month >= 1 && month <= 12 && day >= 1 && day <= 28 && two(s, 11) <= 23
        && two(s, 14) <= 59 && two(s, 17) <= 59;
  }

  private static int two(String s, int at) {
    return (s.charAt(at) - '0') * 10 + (s.charAt(at + 1) - '0');
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
