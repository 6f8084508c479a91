package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.transcripts.records.ContentTypes;
import dev.agentdesk.transcripts.records.MessageRecord;
import dev.agentdesk.transcripts.records.Presentations;
import dev.agentdesk.transcripts.records.TokenUsage;
import dev.agentdesk.transcripts.records.ToolCallRecord;
import dev.agentdesk.transcripts.records.ToolResultRecord;
import dev.agentdesk.transcripts.records.TranscriptRecord;
import dev.agentdesk.transcripts.records.Visibility;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One Gemini CLI message (of a JSON chat or a JSONL log) as canonical records. A message is
 * {@code {id, timestamp, type, content, …}} with {@code type} {@code user}, {@code gemini} (older
 * files and checkpoints: {@code model}), {@code info}, {@code warning} or {@code error}; a
 * {@code gemini} message carries {@code model}, {@code tokens}, {@code thoughts} and
 * {@code toolCalls} with their results inline.
 */
final class GeminiMessages {
  /** What Gemini CLI records when the user presses Esc during a response. */
  static final String CANCELLED = "Request cancelled.";

  private final SourceUnit unit;
  private final SessionAccumulator session;
  private final Map<String, Long> ignored;

  GeminiMessages(SourceUnit unit, SessionAccumulator session, Map<String, Long> ignored) {
    this.unit = unit;
    this.session = session;
    this.ignored = ignored;
  }

  /** A response's usage identity: one per message id of the session (a re-appended copy is the same response). */
  String responseId(String messageId) {
    return "gemini:" + unit.sessionId() + "/" + messageId;
  }

  /**
   * The records of message {@code m} placed at {@code position} (its first byte offset, or its index
   * in a JSON chat). {@code countOnce} says whether a message id counts toward the message count now
   * (false for a copy re-appended under an id already counted).
   */
  List<TranscriptRecord> records(JsonNode m, String id, long position, java.util.function.Predicate<String> countOnce,
      String fallbackModel) {
    List<TranscriptRecord> out = new ArrayList<>(3);
    String type = Json.str(m, "type");
    if (type == null) {
      type = Json.str(m, "role");
    }
    if (type == null) {
      throw new JsonlScan.BadLine("message has no \"type\"");
    }
    String ts = timestamp(m);
    switch (type) {
      case "user" -> {
        String text = Json.str(m, "displayContent");
        if (text == null || text.isBlank()) {
          text = text(m);
        }
        if (text == null || text.isBlank()) {
          ignore("user message (empty)");
          break;
        }
        out.add(msg(id, position, 0, ts, "user", text, ContentTypes.TEXT, false, null, null));
        if (countOnce.test(id)) {
          session.messageCount++;
          session.firstPrompt(text);
        }
      }
      case "gemini", "model", "assistant" -> assistant(m, id, position, ts, countOnce, fallbackModel, out);
      case "info" -> {
        String text = text(m);
        boolean cancelled = text != null && text.strip().equals(CANCELLED);
        if (text == null || text.isBlank()) {
          ignore("info message (empty)");
          break;
        }
        out.add(msg(id, position, 0, ts, cancelled ? "user" : "system", text,
            cancelled ? ContentTypes.INTERRUPT : ContentTypes.TEXT, true, null, null));
      }
      case "warning" -> {
        String text = text(m);
        if (text != null && !text.isBlank()) {
          out.add(msg(id, position, 0, ts, "system", text, ContentTypes.TEXT, true, null, null));
        }
      }
      case "error" -> out.add(msg(id, position, 0, ts, "system", firstNonBlank(text(m), "error"), ContentTypes.ERROR,
          true, null, null));
      default -> ignore("message " + type);
    }
    if (ts != null && !out.isEmpty()) {
      session.seen(ts);
    }
    return out;
  }

  private void assistant(JsonNode m, String id, long position, String ts,
      java.util.function.Predicate<String> countOnce, String fallbackModel,
      List<TranscriptRecord> out) {
    String model = Json.str(m, "model") != null ? Json.str(m, "model") : fallbackModel;
    TokenUsage usage = usage(Json.obj(m, "tokens"));
    String responseId = usage == null ? null : responseId(id);
    boolean usagePlaced = false;
    String thoughts = thoughts(m.get("thoughts"));
    if (thoughts != null) {
      out.add(new MessageRecord(unit.sessionId(), id + "#thinking", null, TranscriptRecord.ordinal(position, 0), ts,
          "assistant", thoughts, ContentTypes.THINKING, false, Visibility.VISIBLE, model, false, null, responseId,
          usage));
      usagePlaced = usage != null;
    }
    String text = text(m);
    if (text != null && !text.isBlank()) {
      out.add(new MessageRecord(unit.sessionId(), id, null, TranscriptRecord.ordinal(position, 1), ts, "assistant",
          text, ContentTypes.TEXT, false, Visibility.VISIBLE, model, false, null, responseId,
          usagePlaced ? null : usage));
      usagePlaced = usage != null;
      if (countOnce.test(id)) {
        session.messageCount++;
      }
    }
    if (!usagePlaced && usage != null) {
      out.add(new MessageRecord(unit.sessionId(), id, null, TranscriptRecord.ordinal(position, 1), ts, "assistant",
          null, ContentTypes.USAGE, true, Visibility.HIDDEN, model, false, null, responseId, usage));
    }
    JsonNode calls = m.get("toolCalls");
    if (calls != null && calls.isArray()) {
      int block = 2;
      for (JsonNode c : calls) {
        toolCall(c, id, position, block++, ts, out);
      }
    }
  }

  private void toolCall(JsonNode c, String messageId, long position, int block, String messageTs,
      List<TranscriptRecord> out) {
    String name = Json.str(c, "name");
    String callId = Json.str(c, "id");
    if (callId == null) {
      callId = messageId + "#" + block;
    }
    JsonNode args = c.get("args");
    String ts = Json.timestamp(Json.str(c, "timestamp"));
    long ordinal = TranscriptRecord.ordinal(position, block);
    out.add(new ToolCallRecord(unit.sessionId(), callId, messageId, ordinal, ts != null ? ts : messageTs, name,
        presentation(name), Json.compact(args), args == null ? null
            : firstNonBlank(Json.str(args, "file_path"), Json.str(args, "absolute_path"), Json.str(args, "path"))));
    String status = Json.str(c, "status");
    String result = resultText(c.get("result"));
    if (result == null) {
      result = Json.str(c, "resultDisplay");
    }
    if (callFinished(status, result != null)) {
      boolean error = "error".equals(status) || "cancelled".equals(status) || hasError(c.get("result"));
      out.add(new ToolResultRecord(unit.sessionId(), callId, ordinal, ts != null ? ts : messageTs,
          result != null ? result : status, error));
    }
  }

  /**
   * Whether a tool call with {@code status} is over (its result is final): every status but those of
   * a call still on its way; a call without a status is over once it has a result.
   */
  static boolean callFinished(String status, boolean hasResult) {
    return status == null ? hasResult
        : !status.equals("executing") && !status.equals("scheduled") && !status.equals("validating")
            && !status.equals("awaiting_approval");
  }

  /** Gemini CLI's built-in tool names; anything else (MCP servers' tools included) is generic. */
  static String presentation(String name) {
    if (name == null) {
      return Presentations.GENERIC;
    }
    return switch (name) {
      case "run_shell_command", "shell" -> Presentations.SHELL;
      case "read_file", "read_many_files" -> Presentations.READ;
      case "write_file", "replace", "edit", "smart_edit" -> Presentations.EDIT;
      case "glob", "search_file_content", "grep", "list_directory", "ls" -> Presentations.SEARCH;
      case "web_fetch", "google_web_search" -> Presentations.WEB;
      case "write_todos" -> Presentations.TODO_LIST;
      case "delegate_to_agent", "codebase_investigator" -> Presentations.SUBAGENT;
      default -> Presentations.GENERIC;
    };
  }

  /**
   * Gemini's counts: {@code input} is the prompt including the cached part ({@code cached}) and
   * {@code tool} prompt tokens are on top of it; {@code thoughts} are billed as output. Canonical
   * input excludes cached input.
   */
  static TokenUsage usage(JsonNode t) {
    if (t == null) {
      return null;
    }
    long cached = Json.lng(t, "cached");
    return new TokenUsage(Math.max(0, Json.lng(t, "input") - cached) + Json.lng(t, "tool"),
        Json.lng(t, "output") + Json.lng(t, "thoughts"), cached, 0);
  }

  /** Text of {@code content} (a string, or parts with {@code text}), or of {@code parts}. */
  static String text(JsonNode m) {
    String s = partsText(m.get("content"));
    return s != null ? s : partsText(m.get("parts"));
  }

  private static String partsText(JsonNode c) {
    if (c == null || c.isNull()) {
      return null;
    }
    if (c.isTextual()) {
      return c.asText();
    }
    if (c.isArray()) {
      StringBuilder sb = new StringBuilder();
      for (JsonNode p : c) {
        String t = p.isTextual() ? p.asText() : Json.str(p, "text");
        if (t == null && p.has("inlineData")) {
          t = "[" + firstNonBlank(Json.str(p.get("inlineData"), "mimeType"), "attachment") + "]";
        }
        if (t != null && !t.isEmpty()) {
          sb.append(sb.length() > 0 ? "\n\n" : "").append(t);
        }
      }
      return sb.length() == 0 ? null : sb.toString();
    }
    return null;
  }

  private static String thoughts(JsonNode th) {
    if (th == null || !th.isArray()) {
      return null;
    }
    StringBuilder sb = new StringBuilder();
    for (JsonNode t : th) {
      String subject = Json.str(t, "subject");
      String description = Json.str(t, "description");
      String one = subject != null && description != null ? subject + ": " + description
          : firstNonBlank(description, subject);
      if (one != null && !one.isBlank()) {
        sb.append(sb.length() > 0 ? "\n\n" : "").append(one);
      }
    }
    return sb.length() == 0 ? null : sb.toString();
  }

  private static String resultText(JsonNode result) {
    if (result == null || !result.isArray()) {
      return null;
    }
    StringBuilder sb = new StringBuilder();
    for (JsonNode r : result) {
      JsonNode resp = r.path("functionResponse").path("response");
      String t = Json.str(resp, "output");
      if (t == null) {
        t = Json.str(resp, "error");
      }
      if (t == null && resp.isObject() && resp.size() > 0) {
        t = resp.toString();
      }
      if (t != null) {
        sb.append(sb.length() > 0 ? "\n\n" : "").append(t);
      }
    }
    return sb.length() == 0 ? null : sb.toString();
  }

  private static boolean hasError(JsonNode result) {
    if (result == null || !result.isArray()) {
      return false;
    }
    for (JsonNode r : result) {
      if (Json.str(r.path("functionResponse").path("response"), "error") != null) {
        return true;
      }
    }
    return false;
  }

  private static String timestamp(JsonNode m) {
    String ts = Json.timestamp(Json.str(m, "timestamp"));
    if (ts == null && m.get("ts") != null && m.get("ts").isNumber()) {
      // checkpoints: seconds since the epoch
      ts = Json.timestampMillis(m.get("ts").asLong() * 1000);
    }
    return ts;
  }

  private MessageRecord msg(String id, long position, int block, String ts, String role, String text,
      String contentType, boolean meta, String model, TokenUsage usage) {
    return new MessageRecord(unit.sessionId(), id, null, TranscriptRecord.ordinal(position, block), ts, role, text,
        contentType, meta, Visibility.VISIBLE, model, false, null, null, usage);
  }

  private void ignore(String kind) {
    ignored.merge(kind, 1L, Long::sum);
  }

  static String firstNonBlank(String... values) {
    for (String v : values) {
      if (v != null && !v.isBlank()) {
        return v;
      }
    }
    return null;
  }
}
