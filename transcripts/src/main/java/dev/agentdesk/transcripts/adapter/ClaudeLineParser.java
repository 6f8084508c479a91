package dev.agentdesk.transcripts.adapter;

import static dev.agentdesk.transcripts.adapter.ClaudeBlocks.appendPara;
import static dev.agentdesk.transcripts.adapter.ClaudeBlocks.firstNonNull;
import static dev.agentdesk.transcripts.adapter.ClaudeBlocks.presentation;
import static dev.agentdesk.transcripts.adapter.ClaudeBlocks.resultText;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.transcripts.records.ContentTypes;
import dev.agentdesk.transcripts.records.MessageRecord;
import dev.agentdesk.transcripts.records.RecordedCost;
import dev.agentdesk.transcripts.records.SubagentRecord;
import dev.agentdesk.transcripts.records.SummaryRecord;
import dev.agentdesk.transcripts.records.TokenUsage;
import dev.agentdesk.transcripts.records.ToolCallRecord;
import dev.agentdesk.transcripts.records.ToolResultRecord;
import dev.agentdesk.transcripts.records.TranscriptRecord;
import dev.agentdesk.transcripts.records.TurnDurationRecord;
import dev.agentdesk.transcripts.records.Visibility;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns Claude Code transcript lines into canonical records for {@link ClaudeCodeAdapter}: one
 * parser per read, holding the records of this read plus the small carry-over kept in the cursor
 * (pending skill, task and workflow calls, queued prompts, recently counted uuids). Split from the adapter, which
 * finds files and runs reads, because the line format alone is this large.
 */
final class ClaudeLineParser extends SessionLines {
  private final SourceUnit unit;
  /** Skill, subagent and workflow calls waiting for what completes them. */
  private final ClaudeToolLinks links;
  /** Prompts waiting in Claude Code's queue (queue-operation lines). */
  private final ClaudeQueue queue;
  /** The last drift-format tool_use line, which a following drift tool_result answers. */
  private String lastDriftToolId;
  /** Line uuids already counted in the message count. */
  private final ClaudeCountedLines counted;
  /** Subagent threads written into this (main) file as sidechain lines. */
  private final ClaudeSidechains sidechains;
  /** The current line is a sidechain line of a main session file: never part of the main count. */
  private boolean inlineSidechain;
  /** The subagent thread the current line belongs to, or null. */
  private String thread;

  ClaudeLineParser(SourceUnit unit, String state) {
    this.unit = unit;
    ObjectNode s = null;
    if (state != null) {
      try {
        s = (ObjectNode) JsonlScan.MAPPER.readTree(state);
      } catch (Exception e) {
        s = null; // an unreadable carry-over only loses cross-batch links, never records
      }
    }
    links = new ClaudeToolLinks(s);
    lastDriftToolId = s != null ? Json.str(s, "drift") : null;
    queue = new ClaudeQueue(s != null ? s.get("queue") : null);
    sidechains = new ClaudeSidechains(s != null && s.get("side") instanceof ObjectNode side ? side : null);
    counted = new ClaudeCountedLines(s != null ? s.get("counted") : null);
  }

  /** Whether the line {@code uuid} is counted now (false when it was counted before). */
  private boolean countOnce(String uuid) {
    return !inlineSidechain && counted.first(uuid);
  }

  @Override
  String stateJson() {
    ObjectNode s = JsonlScan.MAPPER.createObjectNode();
    links.writeState(s);
    if (!queue.state().isEmpty()) {
      s.set("queue", queue.state());
    }
    s.set("side", sidechains.state());
    if (lastDriftToolId != null) {
      s.put("drift", lastDriftToolId);
    }
    if (counted.state() != null) {
      s.set("counted", counted.state());
    }
    return s.toString();
  }

  @Override
  public void line(ObjectNode node, long offset, long lineNo) {
    String type = Json.str(node, "type");
    if (type == null) {
      // Some writers (and older versions) leave out the line type; the message role says it.
      type = Json.str(Json.obj(node, "message"), "role");
    }
    if (type == null) {
      throw new JsonlScan.BadLine("line has no \"type\"");
    }
    List<TranscriptRecord> out = new ArrayList<>(4);
    placeSidechain(node, type, offset, out);
    switch (type) {
      case "user" -> user(node, offset, out);
      case "assistant" -> assistant(node, offset, out);
      case "system" -> system(node, offset, out);
      case "attachment" -> attachment(node, offset, out);
      case "summary" -> {
        String text = Json.str(node, "summary");
        session.title(text, 1);
        out.add(new SummaryRecord(unit.sessionId(), "L" + offset, TranscriptRecord.ordinal(offset, 0), text,
            Json.str(node, "leafUuid")));
      }
      case "ai-title" -> session.title(Json.str(node, "aiTitle"), 2);
      case "custom-title" -> session.title(Json.str(node, "customTitle"), 3);
      case "queue-operation" -> queued(node, offset, out);
      case "permission-mode" -> session.permissionMode = firstNonNull(Json.str(node, "permissionMode"),
          session.permissionMode);
      case "cost-state" -> {
        RecordedCost cost = ClaudeCostState.read(node);
        if (cost == null) {
          ignore("cost-state (no cost)");
        } else {
          session.recordedCost = cost;
        }
      }
      case "tool_use" -> driftToolUse(node, offset, out);
      case "tool_result" -> driftToolResult(node, offset, out);
      default -> ignore(type);
    }
    // Metadata counts only once the line is known to be good; bookkeeping lines do not move
    // the session's time bounds.
    noteMetadata(node, !out.isEmpty());
    records.addAll(out);
  }

  /**
   * Sidechain lines inside a main session file (Claude Code 1.0.x) belong to the thread of the Task
   * call that ran them; the line that starts a thread ties it to its call with a subagent record.
   * A separate subagent file is its own session and needs none of this.
   */
  private void placeSidechain(ObjectNode node, String type, long offset, List<TranscriptRecord> out) {
    inlineSidechain = unit.agentId() == null && Json.bool(node, "isSidechain");
    thread = null;
    if (!inlineSidechain) {
      return;
    }
    JsonNode message = Json.obj(node, "message");
    String prompt = null;
    if ("user".equals(type) && message != null) {
      JsonNode content = message.get("content");
      if (content != null && content.isTextual()) {
        prompt = content.asText();
      } else if (content != null && content.isArray() && content.size() > 0) {
        prompt = Json.str(content.get(0), "text");
      }
    }
    ClaudeSidechains.Placement p = sidechains.place(Json.str(node, "uuid"), Json.str(node, "parentUuid"), prompt);
    thread = p.threadId();
    if (p.startedBy() != null) {
      JsonNode task = links.task(p.startedBy());
      out.add(new SubagentRecord(unit.sessionId(), thread, p.startedBy(), task == null ? null : Json.str(task, "type"),
          task == null ? null : Json.str(task, "description"), null, null, null));
    }
  }

  private void noteMetadata(ObjectNode node, boolean producedRecords) {
    if (unit.agentId() != null && unit.parentSessionId() == null) {
      // An old-layout agent-*.jsonl beside the session files: its lines name the parent session.
      String parent = Json.str(node, "sessionId");
      if (parent != null && !parent.equals(unit.sessionId())) {
        session.parentSessionId(parent);
      }
    }
    session.cwd(Json.str(node, "cwd"));
    session.gitBranch(Json.str(node, "gitBranch"));
    session.version(Json.str(node, "version"));
    String ts = Json.timestamp(Json.str(node, "timestamp"));
    if (ts != null && producedRecords) {
      session.seen(ts);
    }
  }

  private String uuid(ObjectNode node, long offset) {
    String u = Json.str(node, "uuid");
    return u != null && !u.isBlank() ? u : "L" + offset;
  }

  private JsonNode message(ObjectNode node) {
    JsonNode m = node.get("message");
    if (m == null || !m.isObject()) {
      throw new JsonlScan.BadLine("\"message\" is " + (m == null ? "missing" : "not an object"));
    }
    return m;
  }

  private MessageRecord msg(ObjectNode node, String uuid, long ordinal, String role, String text, String contentType,
      boolean isMeta, Visibility visibility, String model, String responseId, TokenUsage usage) {
    return new MessageRecord(unit.sessionId(), uuid, Json.str(node, "parentUuid"), ordinal,
        Json.timestamp(Json.str(node, "timestamp")), role, text, contentType, isMeta, visibility, model,
        Json.bool(node, "isSidechain"), thread != null ? thread : Json.str(node, "agentId"), responseId, usage);
  }

  // ---- user lines -------------------------------------------------------------------------

  private void user(ObjectNode node, long offset, List<TranscriptRecord> out) {
    JsonNode message = message(node);
    JsonNode content = message.get("content");
    if (content == null || content.isNull()) {
      throw new JsonlScan.BadLine("user message has no content");
    }
    String uuid = uuid(node, offset);
    StringBuilder text = new StringBuilder();
    int block = 0;
    if (content.isTextual()) {
      text.append(content.asText());
    } else if (content.isArray()) {
      for (JsonNode b : content) {
        block++;
        if (b.isTextual()) {
          appendPara(text, b.asText());
        } else if ("text".equals(Json.str(b, "type"))) {
          appendPara(text, Json.str(b, "text"));
        } else if ("tool_result".equals(Json.str(b, "type"))) {
          toolResult(node, b, offset, block, out);
        }
      }
    } else {
      throw new JsonlScan.BadLine("user message content is neither text nor a list");
    }
    if (text.length() > 0) {
      queue.delivered(text.toString());
      userText(node, uuid, TranscriptRecord.ordinal(offset, 0), "user", text.toString(), out);
    }
  }

  /** A queue operation: only a prompt the queue put into the running turn without a line of its own is shown. */
  private void queued(ObjectNode node, long offset, List<TranscriptRecord> out) {
    String prompt = queue.apply(node);
    if (prompt != null && !prompt.isBlank()) {
      userText(node, "L" + offset, TranscriptRecord.ordinal(offset, 0), "user", prompt, out);
    }
  }

  /** Classifies one user-side text and emits the visible part and the hidden envelope part. */
  private void userText(ObjectNode node, String uuid, long ordinal, String role, String text,
      List<TranscriptRecord> out) {
    boolean isMeta = Json.bool(node, "isMeta");
    if (Json.bool(node, "isCompactSummary")) {
      out.add(msg(node, uuid, ordinal, role, text, ContentTypes.COMPACT_SUMMARY, true, Visibility.VISIBLE, null,
          null, null));
      return;
    }
    ClaudeEnvelopes.Split split = ClaudeEnvelopes.split(text);
    if (split.hidden() != null) {
      out.add(msg(node, split.visible() == null ? uuid : uuid + "#envelope", ordinal + 1, role, split.hidden(),
          ContentTypes.ENVELOPE, true, Visibility.HIDDEN, null, null, null));
    }
    String visible = split.visible();
    if (visible == null) {
      return;
    }
    ClaudeEnvelopes.Kind kind = ClaudeEnvelopes.kind(visible);
    String contentType = ContentTypes.TEXT;
    boolean meta = isMeta;
    String shown = visible;
    switch (kind) {
      case COMMAND -> {
        contentType = ContentTypes.COMMAND;
        meta = true;
        shown = ClaudeEnvelopes.commandLine(visible);
      }
      case COMMAND_OUTPUT -> {
        contentType = ContentTypes.COMMAND_OUTPUT;
        meta = true;
        shown = ClaudeEnvelopes.commandOutput(visible);
        if (shown.isBlank()) {
          // A command that printed nothing: an empty card would say nothing.
          ignore("command output (empty)");
          return;
        }
      }
      case SKILL_INSTRUCTIONS -> {
        contentType = ContentTypes.SKILL_INSTRUCTIONS;
        meta = true;
      }
      case INTERRUPT -> {
        contentType = ContentTypes.INTERRUPT;
        meta = true;
      }
      case PLAIN -> {
        String source = Json.str(node, "sourceToolUseID");
        if (isMeta && source != null && links.isSkillCall(source)) {
          contentType = ContentTypes.SKILL_INSTRUCTIONS;
        }
      }
      default -> throw new IllegalStateException("hidden kinds are split off before");
    }
    out.add(msg(node, uuid, ordinal, role, shown, contentType, meta, Visibility.VISIBLE, null, null, null));
    if (!meta && "user".equals(role) && countOnce(uuid)) {
      session.messageCount++;
      session.firstPrompt(shown);
    }
  }

  private void toolResult(ObjectNode node, JsonNode b, long offset, int block, List<TranscriptRecord> out) {
    String id = Json.str(b, "tool_use_id");
    if (id == null) {
      id = Json.str(node, "sourceToolUseID");
    }
    if (id == null) {
      id = "L" + offset + "#" + block;
    }
    out.add(new ToolResultRecord(unit.sessionId(), id, TranscriptRecord.ordinal(offset, block),
        Json.timestamp(Json.str(node, "timestamp")), resultText(b.get("content"), Json.str(b, "text")),
        Json.bool(b, "is_error")));
    links.resulted(unit.sessionId(), id, node, inlineSidechain, sidechains, out);
  }

  // ---- assistant lines --------------------------------------------------------------------

  private void assistant(ObjectNode node, long offset, List<TranscriptRecord> out) {
    JsonNode message = message(node);
    String uuid = uuid(node, offset);
    if (Json.bool(node, "isApiErrorMessage")) {
      // Claude Code wrote this in the model's place when a request failed: an error card, not a
      // response (its zero usage and "<synthetic>" model are no model's).
      out.add(msg(node, uuid, TranscriptRecord.ordinal(offset, 0), "system", ClaudeApiErrors.text(node, message),
          ContentTypes.ERROR, true, Visibility.VISIBLE, null, null, null));
      return;
    }
    String model = Json.str(message, "model");
    String messageId = Json.str(message, "id");
    String requestId = Json.str(node, "requestId");
    String responseId = messageId == null && requestId == null ? null
        : (messageId == null ? "" : messageId) + "|" + (requestId == null ? "" : requestId);
    JsonNode u = Json.obj(message, "usage");
    TokenUsage usage = u == null ? null : new TokenUsage(Json.lng(u, "input_tokens"), Json.lng(u, "output_tokens"),
        Json.lng(u, "cache_read_input_tokens"), Json.lng(u, "cache_creation_input_tokens"),
        Json.lng(Json.obj(u, "cache_creation"), "ephemeral_1h_input_tokens"));
    JsonNode content = message.get("content");
    boolean usagePlaced = false;
    boolean counted = false;
    int firstMessage = out.size();
    if (content != null && content.isTextual() && !content.asText().isBlank()) {
      out.add(msg(node, uuid, TranscriptRecord.ordinal(offset, 0), "assistant", content.asText(),
          ContentTypes.TEXT, false, Visibility.VISIBLE, model, responseId, usage));
      usagePlaced = true;
      if (countOnce(uuid)) {
        session.messageCount++;
      }
    } else if (content != null && content.isArray()) {
      int block = 0;
      for (JsonNode b : content) {
        block++;
        String bt = Json.str(b, "type");
        if (bt == null) {
          continue;
        }
        String id = usagePlaced ? uuid + "#" + block : uuid;
        switch (bt) {
          case "text" -> {
            String text = Json.str(b, "text");
            if (text == null || text.isBlank()) {
              // Responses often hold a text block of only "\n\n" between tool calls: nothing to show.
              ignore("assistant block text (blank)");
              continue;
            }
            out.add(msg(node, id, TranscriptRecord.ordinal(offset, block), "assistant", Json.str(b, "text"),
                ContentTypes.TEXT, false, Visibility.VISIBLE, model, responseId, usagePlaced ? null : usage));
            if (!counted) {
              counted = true;
              if (countOnce(uuid)) {
                session.messageCount++;
              }
            }
            usagePlaced = true;
          }
          case "thinking", "redacted_thinking" -> {
            String t = Json.str(b, "thinking");
            out.add(msg(node, id, TranscriptRecord.ordinal(offset, block), "assistant",
                t == null || t.isEmpty() ? null : t, ContentTypes.THINKING, false, Visibility.VISIBLE, model,
                responseId, usagePlaced ? null : usage));
            usagePlaced = true;
          }
          case "tool_use", "server_tool_use" -> toolUse(node, b, uuid, offset, block, out);
          default -> ignore("assistant block " + bt);
        }
      }
    } else if (content != null && !content.isNull() && !content.isTextual()) {
      throw new JsonlScan.BadLine("assistant content is neither text nor a list");
    }
    if (!usagePlaced && (usage != null || responseId != null)) {
      // Lines of a response that carry only tool calls still carry its usage.
      out.add(firstMessage, msg(node, uuid, TranscriptRecord.ordinal(offset, 0), "assistant", null,
          ContentTypes.USAGE, true, Visibility.HIDDEN, model, responseId, usage));
    }
  }

  private void toolUse(ObjectNode node, JsonNode b, String uuid, long offset, int block, List<TranscriptRecord> out) {
    String name = Json.str(b, "name");
    String id = Json.str(b, "id");
    if (id == null) {
      id = uuid + "#" + block;
    }
    JsonNode input = b.get("input");
    String presentation = presentation(name);
    String filePath = input == null ? null
        : firstNonNull(Json.str(input, "file_path"), Json.str(input, "notebook_path"), Json.str(input, "path"));
    out.add(new ToolCallRecord(unit.sessionId(), id, uuid, TranscriptRecord.ordinal(offset, block),
        Json.timestamp(Json.str(node, "timestamp")), name, presentation, Json.compact(input), filePath));
    links.called(presentation, id, input, sidechains);
  }

  // ---- system, attachment and drift lines -------------------------------------------------

  private void system(ObjectNode node, long offset, List<TranscriptRecord> out) {
    String subtype = Json.str(node, "subtype");
    String uuid = uuid(node, offset);
    long ordinal = TranscriptRecord.ordinal(offset, 0);
    if (subtype == null) {
      ignore("system");
      return;
    }
    switch (subtype) {
      case "compact_boundary" -> out.add(msg(node, uuid, ordinal, "system",
          firstNonNull(Json.str(node, "content"), "Conversation compacted"), ContentTypes.COMPACT_BOUNDARY, true,
          Visibility.VISIBLE, null, null, null));
      case "api_error", "error", "api_refusal", "model_refusal_fallback" -> {
        JsonNode err = Json.obj(node, "error");
        String text = firstNonNull(Json.str(node, "apiRefusalExplanation"), err == null ? null : Json.str(err,
            "message"), Json.str(node, "content"), subtype.replace('_', ' '));
        out.add(msg(node, uuid, ordinal, "system", text, ContentTypes.ERROR, true, Visibility.VISIBLE, null, null,
            null));
      }
      case "turn_duration" -> out.add(new TurnDurationRecord(unit.sessionId(), uuid, ordinal,
          Json.timestamp(Json.str(node, "timestamp")), Json.lng(node, "durationMs")));
      case "local_command" -> {
        String content = Json.str(node, "content");
        if (content != null) {
          userText(node, uuid, ordinal, "system", content, out);
        }
      }
      default -> ignore("system " + subtype);
    }
  }

  private void attachment(ObjectNode node, long offset, List<TranscriptRecord> out) {
    JsonNode att = Json.obj(node, "attachment");
    String kind = att == null ? null : Json.str(att, "type");
    if (!"queued_command".equals(kind)) {
      ignore("attachment " + kind);
      return;
    }
    JsonNode prompt = att.get("prompt");
    String text = prompt == null ? null : prompt.isTextual() ? prompt.asText() : resultText(prompt, null);
    if (text == null || text.isBlank()) {
      ignore("attachment queued_command (empty)");
      return;
    }
    queue.delivered(text);
    userText(node, uuid(node, offset), TranscriptRecord.ordinal(offset, 0), "user", text, out);
  }

  private void driftToolUse(ObjectNode node, long offset, List<TranscriptRecord> out) {
    String id = uuid(node, offset);
    String name = Json.str(node, "name");
    JsonNode input = node.get("input");
    out.add(new ToolCallRecord(unit.sessionId(), id, null, TranscriptRecord.ordinal(offset, 0),
        Json.timestamp(Json.str(node, "timestamp")), name, presentation(name), Json.compact(input),
        input == null ? null : Json.str(input, "file_path")));
    lastDriftToolId = id;
  }

  private void driftToolResult(ObjectNode node, long offset, List<TranscriptRecord> out) {
    String id = firstNonNull(Json.str(node, "tool_use_id"), lastDriftToolId, "L" + offset);
    lastDriftToolId = null;
    JsonNode output = node.has("output") ? node.get("output") : node.get("content");
    out.add(new ToolResultRecord(unit.sessionId(), id, TranscriptRecord.ordinal(offset, 0),
        Json.timestamp(Json.str(node, "timestamp")), resultText(output, null), Json.bool(node, "is_error")));
  }
}
