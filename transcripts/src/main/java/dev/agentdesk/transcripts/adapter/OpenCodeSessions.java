package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.transcripts.records.ContentTypes;
import dev.agentdesk.transcripts.records.MessageRecord;
import dev.agentdesk.transcripts.records.Presentations;
import dev.agentdesk.transcripts.records.RecordedCost;
import dev.agentdesk.transcripts.records.TokenUsage;
import dev.agentdesk.transcripts.records.ToolCallRecord;
import dev.agentdesk.transcripts.records.ToolResultRecord;
import dev.agentdesk.transcripts.records.TranscriptRecord;
import dev.agentdesk.transcripts.records.Visibility;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One OpenCode session as canonical records, from its session object, its messages and their
 * parts, whichever storage they came from (JSON files or the SQLite database hold the same
 * objects). Messages are ordered by {@code time.created} (then id), parts as stored; a record's
 * ordinal is (message index, part index), so a whole re-read places everything the same way.
 */
final class OpenCodeSessions {
  private OpenCodeSessions() {}

  /** A message object and its parts. */
  record Message(JsonNode info, List<JsonNode> parts) {}

  static WholeFile.Parsed read(SourceUnit unit, JsonNode session, List<Message> messages) {
    SessionAccumulator acc = new SessionAccumulator();
    Map<String, Long> ignored = new TreeMap<>();
    if (session != null) {
      acc.title(Json.str(session, "title"), 2);
      acc.cwd(Json.str(session, "directory"));
      acc.version(Json.str(session, "version"));
      acc.parentSessionId(Json.str(session, "parentID"));
    }
    List<Message> sorted = new ArrayList<>(messages);
    sorted.sort(Comparator.comparingLong((Message m) -> created(m.info()))
        .thenComparing(m -> String.valueOf(Json.str(m.info(), "id"))));
    List<TranscriptRecord> body = new ArrayList<>();
    long index = 0;
    for (Message m : sorted) {
      index++;
      List<JsonNode> parts = m.parts(); // in the order the storage keeps them (file name, or row id)
      String role = Json.str(m.info(), "role");
      if ("user".equals(role)) {
        user(unit, m.info(), parts, index, acc, ignored, body);
      } else if ("assistant".equals(role)) {
        assistant(unit, m.info(), parts, index, acc, ignored, body);
      } else {
        ignored.merge("message " + role, 1L, Long::sum);
      }
    }
    acc.recordedCost = recordedCost(sorted);
    List<TranscriptRecord> records = new ArrayList<>(body.size() + 1);
    records.add(acc.toRecord(unit, true));
    records.addAll(body);
    return new WholeFile.Parsed(records, ignored);
  }

  private static long created(JsonNode info) {
    JsonNode t = Json.obj(info, "time");
    return t == null ? Long.MAX_VALUE : t.path("created").asLong(Long.MAX_VALUE);
  }

  private static String ts(JsonNode info) {
    long c = created(info);
    return c == Long.MAX_VALUE ? null : Json.timestampMillis(c);
  }

  private static void user(SourceUnit unit, JsonNode info, List<JsonNode> parts, long index, SessionAccumulator acc,
      Map<String, Long> ignored, List<TranscriptRecord> out) {
    String id = id(info, index);
    String ts = ts(info);
    StringBuilder text = new StringBuilder();
    StringBuilder context = new StringBuilder();
    for (JsonNode p : parts) {
      String type = Json.str(p, "type");
      if ("text".equals(type) && Json.str(p, "text") != null && !Json.str(p, "text").isBlank()) {
        // Synthetic text is what OpenCode adds to the prompt (file contents, reminders), not what was typed.
        StringBuilder to = Json.bool(p, "synthetic") ? context : text;
        to.append(to.length() > 0 ? "\n\n" : "").append(Json.str(p, "text"));
      } else {
        ignored.merge("user part " + type, 1L, Long::sum);
      }
    }
    if (parts.isEmpty()) {
      // No parts stored (older files): the message's own summary is all that says what was asked.
      String body = Json.str(Json.obj(info, "summary"), "body");
      if (body != null) {
        text.append(body);
      }
    }
    if (context.length() > 0) {
      out.add(new MessageRecord(unit.sessionId(), id + "#context", null, TranscriptRecord.ordinal(index, 1), ts, "user",
          context.toString(), ContentTypes.ENVELOPE, true, Visibility.HIDDEN, null, false, null, null, null));
    }
    if (text.length() > 0) {
      out.add(new MessageRecord(unit.sessionId(), id, null, TranscriptRecord.ordinal(index, 0), ts, "user",
          text.toString(), ContentTypes.TEXT, false, Visibility.VISIBLE, null, false, null, null, null));
      acc.messageCount++;
      acc.firstPrompt(text.toString());
      if (ts != null) {
        acc.seen(ts);
      }
    }
  }

  private static void assistant(SourceUnit unit, JsonNode info, List<JsonNode> parts, long index,
      SessionAccumulator acc, Map<String, Long> ignored, List<TranscriptRecord> out) {
    String id = id(info, index);
    String ts = ts(info);
    String model = Json.str(info, "modelID") != null ? Json.str(info, "modelID")
        : Json.str(Json.obj(info, "model"), "modelID");
    JsonNode path = info.get("path");
    if (path != null && path.isObject()) {
      acc.cwd(Json.str(path, "cwd"));
    }
    TokenUsage usage = usage(Json.obj(info, "tokens"));
    if (usage == null) {
      for (JsonNode p : parts) {
        if ("step-finish".equals(Json.str(p, "type")) && usage(Json.obj(p, "tokens")) != null) {
          usage = (usage == null ? TokenUsage.ZERO : usage).plus(usage(Json.obj(p, "tokens")));
        }
      }
    }
    String responseId = usage == null ? null : "opencode:" + unit.sessionId() + "/" + id;
    boolean usagePlaced = false;
    boolean counted = false;
    int block = 1;
    for (JsonNode p : parts) {
      block++;
      String type = Json.str(p, "type");
      String partId = Json.str(p, "id") != null ? Json.str(p, "id") : id + "#" + block;
      long ordinal = TranscriptRecord.ordinal(index, block);
      switch (type == null ? "" : type) {
        case "text" -> {
          String t = Json.str(p, "text");
          if (t == null || t.isBlank()) {
            ignored.merge("assistant part text (blank)", 1L, Long::sum);
            continue;
          }
          boolean synthetic = Json.bool(p, "synthetic");
          out.add(new MessageRecord(unit.sessionId(), partId, null, ordinal, ts, "assistant", t, ContentTypes.TEXT,
              synthetic, Visibility.VISIBLE, model, false, null, responseId, usagePlaced ? null : usage));
          usagePlaced = true;
          if (!synthetic && !counted) {
            counted = true;
            acc.messageCount++;
          }
        }
        case "reasoning" -> {
          String t = Json.str(p, "text");
          out.add(new MessageRecord(unit.sessionId(), partId, null, ordinal, ts, "assistant",
              t == null || t.isBlank() ? null : t, ContentTypes.THINKING, false, Visibility.VISIBLE, model, false, null,
              responseId, usagePlaced ? null : usage));
          usagePlaced = true;
        }
        case "tool" -> tool(unit, p, partId, id, ordinal, ts, out);
        case "compaction" -> out.add(new MessageRecord(unit.sessionId(), partId, null, ordinal, ts, "system",
            "Conversation compacted", ContentTypes.COMPACT_BOUNDARY, true, Visibility.VISIBLE, null, false, null, null,
            null));
        default -> ignored.merge("assistant part " + type, 1L, Long::sum);
      }
    }
    if (!usagePlaced && usage != null) {
      out.add(new MessageRecord(unit.sessionId(), id, null, TranscriptRecord.ordinal(index, 1), ts, "assistant", null,
          ContentTypes.USAGE, true, Visibility.HIDDEN, model, false, null, responseId, usage));
    }
    JsonNode error = Json.obj(info, "error");
    if (error != null) {
      boolean aborted = "MessageAbortedError".equals(Json.str(error, "name"));
      String message = Json.str(Json.obj(error, "data"), "message");
      out.add(new MessageRecord(unit.sessionId(), id + "#error", null, TranscriptRecord.ordinal(index, 1023), ts,
          aborted ? "user" : "system", aborted ? "[Request aborted by user]"
              : GeminiMessages.firstNonBlank(message, Json.str(error, "name"), "error"),
          aborted ? ContentTypes.INTERRUPT : ContentTypes.ERROR, true, Visibility.VISIBLE, null, false, null, null,
          null));
    }
    if (ts != null && !out.isEmpty()) {
      acc.seen(ts);
    }
  }

  private static void tool(SourceUnit unit, JsonNode p, String partId, String messageId, long ordinal, String ts,
      List<TranscriptRecord> out) {
    String name = Json.str(p, "tool");
    String call = Json.str(p, "callID") != null ? Json.str(p, "callID") : partId;
    JsonNode state = Json.obj(p, "state");
    JsonNode input = state == null ? null : state.get("input");
    JsonNode time = state == null ? null : Json.obj(state, "time");
    String start = time != null && time.path("start").isNumber() ? Json.timestampMillis(time.path("start").asLong()) : ts;
    out.add(new ToolCallRecord(unit.sessionId(), call, messageId, ordinal, start, name, presentation(name),
        Json.compact(input), input == null ? null
            : GeminiMessages.firstNonBlank(Json.str(input, "filePath"), Json.str(input, "file_path"),
                Json.str(input, "path"))));
    String status = state == null ? null : Json.str(state, "status");
    if (status != null && !status.equals("pending") && !status.equals("running")) {
      String output = GeminiMessages.firstNonBlank(Json.str(state, "output"), Json.str(state, "error"));
      out.add(new ToolResultRecord(unit.sessionId(), call, ordinal, time != null && time.path("end").isNumber()
          ? Json.timestampMillis(time.path("end").asLong()) : start, output != null ? output : status,
          status.equals("error")));
    }
  }

  /**
   * What OpenCode priced the session at itself: each assistant message's {@code cost} (dollars, from
   * the model's price in its catalogue or configuration; 0 for a model it has no price for), summed
   * per model; null when no message carries one.
   */
  private static RecordedCost recordedCost(List<Message> messages) {
    Map<String, RecordedCost.ModelCost> models = new LinkedHashMap<>();
    double total = 0;
    boolean any = false;
    for (Message m : messages) {
      JsonNode info = m.info();
      if (!"assistant".equals(Json.str(info, "role")) || !info.path("cost").isNumber()) {
        continue;
      }
      any = true;
      double usd = info.path("cost").asDouble();
      total += usd;
      String model = Json.str(info, "modelID") != null ? Json.str(info, "modelID") : "unknown";
      TokenUsage u = usage(Json.obj(info, "tokens"));
      TokenUsage t = u == null ? TokenUsage.ZERO : u;
      models.merge(model, new RecordedCost.ModelCost(model, usd, t.input(), t.output(), t.cacheRead(), t.cacheCreation()),
          (a, b) -> new RecordedCost.ModelCost(model, a.costUsd() + b.costUsd(), a.input() + b.input(),
              a.output() + b.output(), a.cacheRead() + b.cacheRead(), a.cacheCreation() + b.cacheCreation()));
    }
    return any ? new RecordedCost(total, null, null, null, false, new ArrayList<>(models.values())) : null;
  }

  /** OpenCode's {@code tokens}: input without the cache, which is {@code cache.read}/{@code cache.write}; reasoning is output. */
  static TokenUsage usage(JsonNode t) {
    if (t == null) {
      return null;
    }
    JsonNode cache = Json.obj(t, "cache");
    return new TokenUsage(Json.lng(t, "input"), Json.lng(t, "output") + Json.lng(t, "reasoning"),
        Json.lng(cache, "read"), Json.lng(cache, "write"));
  }

  static String presentation(String name) {
    if (name == null) {
      return Presentations.GENERIC;
    }
    return switch (name) {
      case "bash" -> Presentations.SHELL;
      case "read" -> Presentations.READ;
      case "edit", "write", "patch", "multiedit" -> Presentations.EDIT;
      case "grep", "glob", "list", "codesearch" -> Presentations.SEARCH;
      case "webfetch", "websearch" -> Presentations.WEB;
      case "todowrite", "todoread" -> Presentations.TODO_LIST;
      case "task" -> Presentations.SUBAGENT;
      case "skill" -> Presentations.SKILL;
      default -> name.contains("_") ? Presentations.MCP : Presentations.GENERIC;
    };
  }

  private static String id(JsonNode info, long index) {
    String id = Json.str(info, "id");
    return id != null ? id : "m" + index;
  }
}
