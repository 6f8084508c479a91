package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;

/**
 * Claude Code 1.0.x wrote a Task subagent's conversation into the main session file, its lines
 * marked {@code isSidechain: true}, between the Task call and its result. This works out which
 * Task call each such line belongs to: a thread starts at a sidechain line without a known parent,
 * whose prompt is the Task call's {@code prompt} (or, failing that, the oldest Task call still
 * without a thread); later lines join their parent's thread. The thread id becomes the messages'
 * {@code agentId} and the id of the subagent record that ties the thread to its call.
 *
 * <p>The carry-over (pending Task calls, the last lines' threads) lives in the cursor state.
 */
final class ClaudeSidechains {
  private static final int RECENT_LIMIT = 64;
  /** Task call id -> {"prompt", "threaded"} for calls whose result has not come yet. */
  private final ObjectNode pending;
  /** Line uuid -> thread id of recent sidechain lines (insertion order; the oldest are dropped). */
  private final ObjectNode recent;
  private String lastThread;

  ClaudeSidechains(ObjectNode state) {
    pending = state != null && state.get("pending") instanceof ObjectNode p ? p : JsonlScan.MAPPER.createObjectNode();
    recent = state != null && state.get("recent") instanceof ObjectNode r ? r : JsonlScan.MAPPER.createObjectNode();
    lastThread = state != null ? Json.str(state, "last") : null;
  }

  ObjectNode state() {
    ObjectNode s = JsonlScan.MAPPER.createObjectNode();
    s.set("pending", pending);
    s.set("recent", recent);
    if (lastThread != null) {
      s.put("last", lastThread);
    }
    return s;
  }

  /** The thread id a subagent started by the Task call {@code callId} gets. */
  static String threadId(String callId) {
    return "sidechain-" + callId;
  }

  /** A Task call was made: its sidechain may follow. */
  void taskCall(String callId, String prompt) {
    ObjectNode t = pending.putObject(callId);
    t.put("prompt", prompt == null ? "" : prompt.strip());
    while (pending.size() > RECENT_LIMIT) {
      pending.remove(pending.fieldNames().next());
    }
  }

  /** The Task call's result came: no more sidechain lines for it. Returns whether it had a thread. */
  boolean taskDone(String callId) {
    JsonNode t = pending.remove(callId);
    return t != null && t.path("threaded").asBoolean(false);
  }

  /** What {@link #place} decided for one sidechain line. */
  record Placement(String threadId, String startedBy) {}

  /**
   * The thread of a sidechain line, or null when it cannot be tied to a Task call (it then stays in
   * the main conversation). {@code startedBy} is set when this line starts the thread of that call.
   */
  Placement place(String uuid, String parentUuid, String promptText) {
    String thread = parentUuid == null ? null : Json.str(recent, parentUuid);
    String startedBy = null;
    if (thread == null) {
      String call = parentUuid == null ? callFor(promptText) : null;
      if (call != null) {
        ((ObjectNode) pending.get(call)).put("threaded", true);
        thread = threadId(call);
        startedBy = call;
      } else {
        thread = lastThread;
      }
    }
    if (thread == null) {
      return new Placement(null, null);
    }
    if (uuid != null) {
      recent.remove(uuid);
      recent.put(uuid, thread);
      while (recent.size() > RECENT_LIMIT) {
        recent.remove(recent.fieldNames().next());
      }
    }
    lastThread = thread;
    return new Placement(thread, startedBy);
  }

  private String callFor(String promptText) {
    String want = promptText == null ? null : promptText.strip();
    String firstFree = null;
    for (Iterator<Map.Entry<String, JsonNode>> it = pending.fields(); it.hasNext();) {
      Map.Entry<String, JsonNode> e = it.next();
      if (e.getValue().path("threaded").asBoolean(false)) {
        continue;
      }
      if (want != null && want.equals(e.getValue().path("prompt").asText())) {
        return e.getKey();
      }
      if (firstFree == null) {
        firstFree = e.getKey();
      }
    }
    return firstFree;
  }
}
