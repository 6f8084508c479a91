package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.transcripts.records.RecordedCost;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Claude Code's {@code cost-state} line: the session's cost and API time as Claude Code itself
 * counted them, written when the process exits (or switches session) and restored on resume. The
 * figures are cumulative, so the last line of a file stands; they cover the subagents too, and list
 * models that wrote no message (the title generator).
 *
 * <pre>{"type":"cost-state","sessionId":"…","totalCostUSD":0.19,"totalAPIDuration":61919,
 *  "totalAPIDurationWithoutRetries":60102,"totalToolDuration":6408,"totalDuration":922536,
 *  "totalLinesAdded":37,"totalLinesRemoved":4,"startTime":1788722528619,"hasUnknownModelCost":false,
 *  "modelUsage":{"claude-opus-5":{"inputTokens":120,"outputTokens":45,"cacheReadInputTokens":0,
 *  "cacheCreationInputTokens":0,"webSearchRequests":0,"costUSD":0.3471}}}</pre>
 */
final class ClaudeCostState {
  private ClaudeCostState() {}

  /** The recorded cost of a {@code cost-state} line, or null when it records no cost at all. */
  static RecordedCost read(JsonNode line) {
    List<RecordedCost.ModelCost> models = new ArrayList<>();
    double modelSum = 0;
    boolean anyModelCost = false;
    JsonNode usage = Json.obj(line, "modelUsage");
    if (usage != null) {
      for (Iterator<Map.Entry<String, JsonNode>> it = usage.fields(); it.hasNext();) {
        Map.Entry<String, JsonNode> e = it.next();
        JsonNode m = e.getValue();
        if (!m.isObject()) {
          continue;
        }
        Double cost = number(m, "costUSD");
        if (cost != null) {
          modelSum += cost;
          anyModelCost = true;
        }
        models.add(new RecordedCost.ModelCost(e.getKey(), cost, Json.lng(m, "inputTokens"), Json.lng(m, "outputTokens"),
            Json.lng(m, "cacheReadInputTokens"), Json.lng(m, "cacheCreationInputTokens")));
      }
    }
    Double total = number(line, "totalCostUSD");
    if (total == null && !anyModelCost) {
      return null;
    }
    return new RecordedCost(total != null ? total : modelSum, Json.lngOrNull(line, "totalAPIDuration"),
        Json.lngOrNull(line, "totalAPIDurationWithoutRetries"), Json.lngOrNull(line, "totalDuration"),
        Json.bool(line, "hasUnknownModelCost"), models);
  }

  private static Double number(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v != null && v.isNumber() && Double.isFinite(v.asDouble()) ? v.asDouble() : null;
  }
}
