package dev.agentdesk.transcripts.records;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What the agent itself recorded that a session cost, as it last wrote it (the figures are
 * cumulative: a later record replaces an earlier one, never adds to it). Shown beside agentdesk's
 * own cost, which is calculated from the tokens with its price table; the two differ when the agent
 * priced differently or counted calls that wrote no message (a title generator, for one).
 *
 * @param totalUsd the session's cost in US dollars
 * @param apiDurationMs time spent in API calls, retries included (null when not recorded)
 * @param apiDurationWithoutRetriesMs the same without the time of retried calls (null when not recorded)
 * @param wallDurationMs the session's wall-clock time (null when not recorded)
 * @param partial the agent said some model's cost was unknown to it, so {@code totalUsd} is a lower bound
 * @param models the cost and tokens per model, in the agent's order
 */
public record RecordedCost(double totalUsd, Long apiDurationMs, Long apiDurationWithoutRetriesMs, Long wallDurationMs,
    boolean partial, List<ModelCost> models) {

  public RecordedCost {
    models = List.copyOf(models);
  }

  /** One model's share; {@code costUsd} is null when the agent wrote none. */
  public record ModelCost(String model, Double costUsd, long input, long output, long cacheRead, long cacheCreation) {
    public ModelCost {
      Objects.requireNonNull(model, "model");
    }
  }

  /** Time lost to retried API calls, or null when either duration is not recorded. */
  public Long retryMs() {
    return apiDurationMs == null || apiDurationWithoutRetriesMs == null ? null
        : Math.max(0, apiDurationMs - apiDurationWithoutRetriesMs);
  }

  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** The stored form (one text column of the session row): compact JSON in a fixed field order. */
  public String encode() {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("usd", totalUsd);
    putLong(o, "api_ms", apiDurationMs);
    putLong(o, "api_without_retries_ms", apiDurationWithoutRetriesMs);
    putLong(o, "wall_ms", wallDurationMs);
    o.put("partial", partial);
    ArrayNode ms = o.putArray("models");
    for (ModelCost m : models) {
      ObjectNode x = ms.addObject().put("model", m.model());
      if (m.costUsd() == null) {
        x.putNull("usd");
      } else {
        x.put("usd", m.costUsd());
      }
      x.put("input", m.input()).put("output", m.output()).put("cache_read", m.cacheRead())
          .put("cache_creation", m.cacheCreation());
    }
    return o.toString();
  }

  /** The figures {@link #encode} stored, or null for null (a session without them). */
  public static RecordedCost decode(String stored) {
    if (stored == null) {
      return null;
    }
    try {
      JsonNode o = MAPPER.readTree(stored);
      List<ModelCost> models = new ArrayList<>();
      for (JsonNode m : o.path("models")) {
        models.add(new ModelCost(m.path("model").asText(), m.path("usd").isNumber() ? m.path("usd").asDouble() : null,
            m.path("input").asLong(), m.path("output").asLong(), m.path("cache_read").asLong(),
            m.path("cache_creation").asLong()));
      }
      return new RecordedCost(o.path("usd").asDouble(), longOrNull(o, "api_ms"), longOrNull(o, "api_without_retries_ms"),
          longOrNull(o, "wall_ms"), o.path("partial").asBoolean(), models);
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException("stored recorded cost is not JSON: " + e.getMessage(), e);
    }
  }

  private static void putLong(ObjectNode o, String name, Long v) {
    if (v == null) {
      o.putNull(name);
    } else {
      o.put(name, v);
    }
  }

  private static Long longOrNull(JsonNode o, String name) {
    return o.path(name).isNumber() ? o.path(name).asLong() : null;
  }
}
