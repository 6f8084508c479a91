package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.transcripts.records.ContentTypes;
import dev.agentdesk.transcripts.records.MessageRecord;
import dev.agentdesk.transcripts.records.SummaryRecord;
import dev.agentdesk.transcripts.records.TokenUsage;
import dev.agentdesk.transcripts.records.ToolCallRecord;
import dev.agentdesk.transcripts.records.ToolResultRecord;
import dev.agentdesk.transcripts.records.TranscriptRecord;
import dev.agentdesk.transcripts.records.Visibility;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The records of one read of a pi session file, and the carry-over kept in the cursor: the id of
 * the previous entry (a branch shows where the next entry's {@code parentId} is not it), the current
 * model (from {@code model_change}), and, for a fork, the header's time (entries older than it were
 * copied from the parent session and are skipped, so their tokens count once, in the parent).
 */
final class PiEntries extends SessionLines {
  private static final int BRANCH_BLOCK = 0;

  final SourceUnit unit;
  private final ObjectNode state;

  PiEntries(SourceUnit unit, String stateJson) {
    this.unit = unit;
    ObjectNode s = stateObject(stateJson);
    state = s != null ? s : JsonlScan.MAPPER.createObjectNode();
  }

  @Override
  String stateJson() {
    return state.toString();
  }

  @Override
  public void line(ObjectNode node, long offset, long lineNo) {
    String type = Json.str(node, "type");
    if (type == null) {
      throw new JsonlScan.BadLine("entry has no \"type\"");
    }
    String ts = Json.timestamp(Json.str(node, "timestamp"));
    if ("session".equals(type)) {
      header(node, ts);
      return;
    }
    String id = Json.str(node, "id");
    String forkedAt = Json.str(state, "forkedAt");
    if (forkedAt != null && ts != null && ts.compareTo(forkedAt) < 0) {
      // A fork (/fork, or a branch extracted to its own file) starts with a copy of the parent's path.
      if (id != null) {
        state.put("last", id);
      }
      ignore("copied from the parent session");
      return;
    }
    List<TranscriptRecord> out = new ArrayList<>(3);
    if (id != null && !"branch_summary".equals(type)) {
      branchPoint(node, id, offset, ts, out);
    }
    if (id != null) {
      state.put("last", id);
    }
    String uuid = id != null ? id : "L" + offset;
    switch (type) {
      case "message" -> message(node, uuid, offset, ts, out);
      case "model_change" -> {
        String model = Json.str(node, "modelId");
        if (model != null && !model.isBlank()) {
          state.put("model", model);
        }
        ignore(type);
      }
      case "session_info" -> {
        String name = Json.str(node, "name");
        if (name == null || name.isBlank()) {
          ignore("session_info (no name)");
        } else {
          session.title(name, 3);
        }
      }
      case "compaction" -> out.add(msg(uuid, offset, 1, ts, "system",
          GeminiMessages.firstNonBlank(Json.str(node, "summary"), "Context compacted"), ContentTypes.COMPACT_SUMMARY,
          true, Visibility.VISIBLE, null));
      case "branch_summary" -> out.add(new SummaryRecord(unit.sessionId(), uuid, TranscriptRecord.ordinal(offset, 1),
          Json.str(node, "summary"), Json.str(node, "fromId")));
      case "custom_message" -> custom(node, Json.bool(node, "display"), uuid, offset, ts, out);
      default -> ignore(type); // thinking_level_change, label, custom (extension state), and types to come
    }
    if (ts != null && !out.isEmpty()) {
      session.seen(ts);
    }
    records.addAll(out);
  }

  private void header(ObjectNode node, String ts) {
    if (state.path("headerSeen").asBoolean(false)) {
      ignore("session (repeated header)");
      return;
    }
    state.put("headerSeen", true);
    session.cwd(Json.str(node, "cwd"));
    // parentSession (format 3) or branchedFrom (format 2) names the session file this one was forked from.
    if (ts != null && (Json.str(node, "parentSession") != null || Json.str(node, "branchedFrom") != null)) {
      state.put("forkedAt", ts);
    }
    session.seen(ts);
  }

  /**
   * pi keeps every branch in one file: going back with {@code /tree} makes the next entry a child of
   * an earlier one. A meta card shows where the conversation jumps back; the entries above it since
   * that point are the branch left behind (a {@code branch_summary} entry is that card itself).
   */
  private void branchPoint(ObjectNode node, String id, long offset, String ts, List<TranscriptRecord> out) {
    String last = Json.str(state, "last");
    if (last == null || !node.has("parentId")) {
      return;
    }
    String parent = Json.str(node, "parentId");
    if (Objects.equals(parent, last)) {
      return;
    }
    String text = parent == null
        ? "Branch: the conversation starts again from the beginning; the entries above are an earlier branch."
        : "Branch: the conversation continues from entry " + parent
            + "; the entries above since that one are a branch left behind.";
    out.add(msg(id + "#branch", offset, BRANCH_BLOCK, ts, "system", text, ContentTypes.BRANCH, true,
        Visibility.VISIBLE, null));
  }

  private void message(ObjectNode node, String uuid, long offset, String ts, List<TranscriptRecord> out) {
    JsonNode m = Json.obj(node, "message");
    if (m == null) {
      throw new JsonlScan.BadLine("message entry has no \"message\" object");
    }
    if (ts == null && m.path("timestamp").isNumber()) {
      ts = Json.timestampMillis(m.get("timestamp").asLong());
    }
    String role = Json.str(m, "role");
    if (role == null) {
      throw new JsonlScan.BadLine("message has no \"role\"");
    }
    switch (role) {
      case "user" -> {
        String text = text(m.get("content"));
        if (text == null || text.isBlank()) {
          ignore("user message (empty)");
          return;
        }
        out.add(msg(uuid, offset, 1, ts, "user", text, ContentTypes.TEXT, false, Visibility.VISIBLE, null));
        session.messageCount++;
        session.firstPrompt(text);
      }
      case "assistant" -> assistant(m, uuid, offset, ts, out);
      case "toolResult" -> {
        String call = Json.str(m, "toolCallId");
        if (call == null) {
          throw new JsonlScan.BadLine("toolResult has no \"toolCallId\"");
        }
        out.add(new ToolResultRecord(unit.sessionId(), call, TranscriptRecord.ordinal(offset, 1), ts,
            text(m.get("content")), Json.bool(m, "isError")));
        // Tools that run a model themselves (newer releases) record that work's tokens on the result.
        TokenUsage u = usage(m);
        if (u != null) {
          out.add(usageCarrier(uuid, offset, ts, null, u));
        }
      }
      case "bashExecution" -> bash(m, uuid, offset, ts, out);
      case "custom", "hookMessage" -> custom(m, Json.bool(m, "display"), uuid, offset, ts, out);
      case "compactionSummary" -> out.add(msg(uuid, offset, 1, ts, "system",
          GeminiMessages.firstNonBlank(Json.str(m, "summary"), "Context compacted"), ContentTypes.COMPACT_SUMMARY, true,
          Visibility.VISIBLE, null));
      case "branchSummary" -> out.add(new SummaryRecord(unit.sessionId(), uuid, TranscriptRecord.ordinal(offset, 1),
          Json.str(m, "summary"), Json.str(m, "fromId")));
      default -> ignore("message role " + role);
    }
  }

  private void assistant(JsonNode m, String uuid, long offset, String ts, List<TranscriptRecord> out) {
    String model = GeminiMessages.firstNonBlank(Json.str(m, "model"), Json.str(state, "model"));
    JsonNode content = m.get("content");
    int block = 1;
    boolean counted = false;
    if (content != null && content.isTextual()) {
      content = JsonlScan.MAPPER.createArrayNode().add(JsonlScan.MAPPER.createObjectNode().put("type", "text")
          .put("text", content.asText()));
    }
    if (content != null && content.isArray()) {
      for (JsonNode b : content) {
        int at = block++;
        String kind = Json.str(b, "type");
        if ("text".equals(kind)) {
          String text = Json.str(b, "text");
          if (text != null && !text.isBlank()) {
            out.add(msg(at == 1 ? uuid : uuid + "#" + at, offset, at, ts, "assistant", text, ContentTypes.TEXT, false,
                Visibility.VISIBLE, model));
            counted = true;
          }
        } else if ("thinking".equals(kind)) {
          String text = Json.bool(b, "redacted") ? null : Json.str(b, "thinking");
          out.add(msg(uuid + "#" + at, offset, at, ts, "assistant", text == null || text.isBlank() ? null : text,
              ContentTypes.THINKING, false, Visibility.VISIBLE, model));
        } else if ("toolCall".equals(kind)) {
          String call = GeminiMessages.firstNonBlank(Json.str(b, "id"), uuid + "#" + at);
          String name = Json.str(b, "name");
          JsonNode args = b.get("arguments");
          out.add(new ToolCallRecord(unit.sessionId(), call, uuid, TranscriptRecord.ordinal(offset, at), ts, name,
              PiAdapter.presentation(name), Json.compact(args), args == null ? null
                  : GeminiMessages.firstNonBlank(Json.str(args, "path"), Json.str(args, "file_path"))));
        } else {
          ignore("assistant block " + kind);
        }
      }
    }
    if (counted) {
      session.messageCount++;
    }
    String stop = Json.str(m, "stopReason");
    if ("error".equals(stop)) {
      out.add(msg(uuid + "#error", offset, block++, ts, "system",
          GeminiMessages.firstNonBlank(Json.str(m, "errorMessage"), "The model request failed"), ContentTypes.ERROR,
          true, Visibility.VISIBLE, model));
    } else if ("aborted".equals(stop)) {
      out.add(msg(uuid + "#aborted", offset, block++, ts, "user", "[Request aborted by user]",
          ContentTypes.INTERRUPT, true, Visibility.VISIBLE, model));
    }
    TokenUsage u = usage(m);
    if (u != null) {
      out.add(usageCarrier(uuid, offset, ts, model, u));
    }
  }

  private void bash(JsonNode m, String uuid, long offset, String ts, List<TranscriptRecord> out) {
    String command = Json.str(m, "command");
    out.add(msg(uuid, offset, 1, ts, "user", "!" + (command == null ? "" : command), ContentTypes.COMMAND, true,
        Visibility.VISIBLE, null));
    StringBuilder output = new StringBuilder(Objects.requireNonNullElse(Json.str(m, "output"), "").strip());
    if (Json.bool(m, "cancelled")) {
      output.append(output.length() > 0 ? "\n" : "").append("[cancelled]");
    } else if (m.path("exitCode").isNumber() && m.get("exitCode").asInt() != 0) {
      output.append(output.length() > 0 ? "\n" : "").append("[exit code ").append(m.get("exitCode").asInt()).append(']');
    }
    if (output.length() > 0) {
      out.add(msg(uuid + "#output", offset, 2, ts, "user", output.toString(), ContentTypes.COMMAND_OUTPUT, true,
          Visibility.VISIBLE, null));
    }
  }

  /** Text an extension put into the model's context: shown as a meta card when pi shows it, else hidden. */
  private void custom(JsonNode m, boolean display, String uuid, long offset, String ts, List<TranscriptRecord> out) {
    String text = text(m.get("content"));
    if (text == null || text.isBlank()) {
      ignore("custom message (empty)");
      return;
    }
    out.add(display
        ? msg(uuid, offset, 1, ts, "user", text, ContentTypes.TEXT, true, Visibility.VISIBLE, null)
        : msg(uuid, offset, 1, ts, "user", text, ContentTypes.ENVELOPE, true, Visibility.HIDDEN, null));
  }

  /** {@code usage} {input, output, cacheRead, cacheWrite}; pi-ai already reports input without the cached part. */
  private static TokenUsage usage(JsonNode m) {
    JsonNode u = Json.obj(m, "usage");
    if (u == null) {
      return null;
    }
    return new TokenUsage(Json.lng(u, "input"), Json.lng(u, "output"), Json.lng(u, "cacheRead"),
        Json.lng(u, "cacheWrite"));
  }

  /** Each message is one model response: its usage rides on one hidden record, so it counts once. */
  private MessageRecord usageCarrier(String uuid, long offset, String ts, String model, TokenUsage u) {
    String id = uuid + "#usage";
    return new MessageRecord(unit.sessionId(), id, null, TranscriptRecord.ordinal(offset, 1000), ts, "assistant", null,
        ContentTypes.USAGE, true, Visibility.HIDDEN, model, false, null, "pi:" + unit.sessionId() + "/" + uuid, u);
  }

  /** A string, or the text blocks of a content array (an image as {@code [image]}), one paragraph each. */
  static String text(JsonNode content) {
    if (content == null || content.isNull()) {
      return null;
    }
    if (content.isTextual()) {
      return content.asText();
    }
    if (!content.isArray()) {
      return null;
    }
    StringBuilder sb = new StringBuilder();
    for (JsonNode b : content) {
      String part = "image".equals(Json.str(b, "type")) ? "[image]" : Json.str(b, "text");
      if (part != null && !part.isEmpty()) {
        if (sb.length() > 0) {
          sb.append("\n\n");
        }
        sb.append(part);
      }
    }
    return sb.toString();
  }

  private MessageRecord msg(String uuid, long offset, int block, String ts, String role, String text,
      String contentType, boolean meta, Visibility visibility, String model) {
    return new MessageRecord(unit.sessionId(), uuid, null, TranscriptRecord.ordinal(offset, block), ts, role, text,
        contentType, meta, visibility, model, false, null, null, null);
  }
}
