package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.transcripts.records.Presentations;
import dev.agentdesk.transcripts.records.SubagentRecord;
import dev.agentdesk.transcripts.records.TranscriptRecord;
import dev.agentdesk.transcripts.records.WorkflowRecord;
import java.util.List;

/**
 * The Claude Code tool calls whose result (or instructions) may still follow: Skill calls, whose
 * instruction message names them in {@code sourceToolUseID}; subagent calls ({@code Task},
 * {@code Agent}), whose result's {@code toolUseResult} names the agent; workflow calls, whose result
 * names the run. Carried in the cursor, each list bounded to {@link ClaudeBlocks#STATE_LIMIT}.
 */
final class ClaudeToolLinks {
  /** Skill tool-call ids whose instruction message may still follow. */
  private final ArrayNode skillCalls;
  /** Subagent tool calls waiting for their result: id -> {type, description}. */
  private final ObjectNode taskCalls;
  /** Workflow tool calls waiting for their result. */
  private final ArrayNode workflowCalls;

  ClaudeToolLinks(ObjectNode s) {
    skillCalls = s != null && s.get("skills") instanceof ArrayNode a ? a : JsonlScan.MAPPER.createArrayNode();
    taskCalls = s != null && s.get("tasks") instanceof ObjectNode o ? o : JsonlScan.MAPPER.createObjectNode();
    workflowCalls = s != null && s.get("workflows") instanceof ArrayNode w ? w : JsonlScan.MAPPER.createArrayNode();
  }

  void writeState(ObjectNode s) {
    s.set("skills", skillCalls);
    s.set("tasks", taskCalls);
    s.set("workflows", workflowCalls);
  }

  /** A call of {@code presentation} was made; a subagent call may start a sidechain thread. */
  void called(String presentation, String id, JsonNode input, ClaudeSidechains sidechains) {
    switch (presentation) {
      case Presentations.SKILL -> ClaudeBlocks.remember(skillCalls, id);
      case Presentations.SUBAGENT -> {
        ObjectNode t = JsonlScan.MAPPER.createObjectNode();
        t.put("type", input == null ? null : Json.str(input, "subagent_type"));
        t.put("description", input == null ? null : Json.str(input, "description"));
        taskCalls.set(id, t);
        sidechains.taskCall(id, input == null ? null : Json.str(input, "prompt"));
        while (taskCalls.size() > ClaudeBlocks.STATE_LIMIT) {
          taskCalls.remove(taskCalls.fieldNames().next());
        }
      }
      case Presentations.WORKFLOW -> ClaudeBlocks.remember(workflowCalls, id);
      default -> { }
    }
  }

  boolean isSkillCall(String id) {
    return ClaudeBlocks.contains(skillCalls, id);
  }

  /** The pending subagent call {@code id} ({type, description}), or null. */
  JsonNode task(String id) {
    return taskCalls.get(id);
  }

  /**
   * The result of call {@code id} came on {@code line}: the subagent or workflow records it
   * completes. {@code inlineSidechain}: the line is a sidechain line of a main file.
   */
  void resulted(String sessionId, String id, ObjectNode line, boolean inlineSidechain, ClaudeSidechains sidechains,
      List<TranscriptRecord> out) {
    JsonNode tur = line.get("toolUseResult");
    JsonNode task = taskCalls.remove(id);
    boolean threaded = sidechains.taskDone(id);
    Long duration = tur != null ? Json.lngOrNull(tur, "totalDurationMs") : null;
    Long tokens = tur != null ? Json.lngOrNull(tur, "totalTokens") : null;
    if (task != null) {
      String agentId = tur != null && tur.isObject() ? Json.str(tur, "agentId") : null;
      if (agentId == null && !inlineSidechain) {
        agentId = Json.str(line, "agentId");
      }
      if (agentId == null && threaded) {
        // The subagent's thread is in this file: the record now gains what the result reports.
        out.add(new SubagentRecord(sessionId, ClaudeSidechains.threadId(id), id, Json.str(task, "type"),
            Json.str(task, "description"), duration, tokens, null));
      } else if (agentId != null) {
        out.add(new SubagentRecord(sessionId, agentId, id, Json.str(task, "type"), Json.str(task, "description"),
            duration, tokens, "agent-" + agentId));
      }
    }
    if (ClaudeBlocks.removeFrom(workflowCalls, id) && tur != null && tur.isObject()) {
      String runId = Json.str(tur, "runId");
      String taskId = Json.str(tur, "taskId");
      if (runId != null || taskId != null) {
        out.add(new WorkflowRecord(sessionId, runId != null ? runId : "task:" + taskId, id, taskId,
            Json.str(tur, "status"), duration, tokens));
      }
    }
  }
}
