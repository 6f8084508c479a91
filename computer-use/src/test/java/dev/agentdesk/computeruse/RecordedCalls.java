package dev.agentdesk.computeruse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** Tool calls as the vendors' APIs emit them, one JSON per line in test resources, by their id. */
final class RecordedCalls {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final Map<String, JsonNode> byId = new LinkedHashMap<>();

  RecordedCalls(String resource, String idField) {
    try (InputStream in = RecordedCalls.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("no test resource " + resource);
      }
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank()) {
          JsonNode n = JSON.readTree(line);
          byId.put(n.get(idField).asText(), n);
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + resource, e);
    }
  }

  JsonNode get(String id) {
    JsonNode n = byId.get(id);
    if (n == null) {
      throw new IllegalArgumentException("no recorded call " + id);
    }
    return n;
  }
}
