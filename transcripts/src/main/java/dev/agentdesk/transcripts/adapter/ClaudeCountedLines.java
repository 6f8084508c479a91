package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;

/**
 * Line uuids already counted in the message count: all of this read, plus the last {@link #LIMIT}
 * of earlier reads (carried in the cursor), so a line written twice counts once. A copy further away
 * than that across two incremental reads would count twice; writers repeat a line right after the
 * original (a resumed write), so the carry-over stays small.
 */
final class ClaudeCountedLines {
  static final int LIMIT = 64;
  private final Set<String> counted = new HashSet<>();
  private final ArrayDeque<String> recent = new ArrayDeque<>();

  ClaudeCountedLines(JsonNode state) {
    if (state instanceof ArrayNode c) {
      c.forEach(u -> note(u.asText()));
    }
  }

  /** Whether {@code uuid} is counted now (false when it was counted before). */
  boolean first(String uuid) {
    if (!counted.add(uuid)) {
      return false;
    }
    note(uuid);
    return true;
  }

  private void note(String uuid) {
    counted.add(uuid);
    recent.addLast(uuid);
    if (recent.size() > LIMIT) {
      recent.removeFirst();
    }
  }

  /** The carry-over, or null when nothing was counted. */
  ArrayNode state() {
    if (recent.isEmpty()) {
      return null;
    }
    ArrayNode c = JsonlScan.MAPPER.createArrayNode();
    recent.forEach(c::add);
    return c;
  }
}
