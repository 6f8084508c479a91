package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.transcripts.LiveTranscripts;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.TurnSignals;
import dev.agentdesk.transcripts.records.ContentTypes;
import dev.agentdesk.transcripts.records.MessageRecord;
import dev.agentdesk.transcripts.records.Presentations;
import dev.agentdesk.transcripts.records.SubagentRecord;
import dev.agentdesk.transcripts.records.TokenUsage;
import dev.agentdesk.transcripts.records.ToolCallRecord;
import dev.agentdesk.transcripts.records.ToolResultRecord;
import dev.agentdesk.transcripts.records.TranscriptRecord;
import dev.agentdesk.transcripts.records.Visibility;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * GitHub Copilot CLI: {@code ~/.copilot/session-state/<id>/events.jsonl} (older releases: a flat
 * {@code session-state/<id>.jsonl}). Each line is an event {@code {type, data, id, timestamp,
 * parentId}}: {@code session.start}, {@code user.message}, {@code assistant.message} (text and
 * {@code toolRequests}), {@code assistant.reasoning}, {@code tool.execution_start/complete},
 * {@code subagent.started/completed}, {@code abort}, {@code session.error},
 * {@code session.usage_record} (one per model response, written as it ends: the live token counts)
 * and {@code session.shutdown}, whose {@code modelMetrics} hold the run's tokens per model (older
 * logs have no usage records: these totals are all they count). A subagent's events carry
 * {@code parentToolCallId}: they are the thread of the call that started it.
 */
public final class CopilotAdapter implements ProviderAdapter {
  @Override
  public Provider provider() {
    return Provider.COPILOT;
  }

  /** {@code $COPILOT_HOME/session-state}, else {@code ~/.copilot/session-state}. */
  @Override
  public List<Path> defaultRoots(Map<String, String> env, Path home) {
    Path dir = Env.dir(env, "COPILOT_HOME");
    return List.of((dir != null ? dir : home.resolve(".copilot")).resolve("session-state"));
  }

  @Override
  public boolean recognises(Path file, List<String> head) {
    return head.stream().anyMatch(l -> l.contains("\"session.start\"") || l.contains("\"user.message\"")
        || l.contains("\"assistant.message\""));
  }

  @Override
  public Optional<SourceUnit> unitFor(Path file) {
    String name = file.getFileName().toString();
    if (!name.endsWith(".jsonl")) {
      return Optional.empty();
    }
    Path dir = file.toAbsolutePath().getParent();
    if (name.equals("events.jsonl")) {
      if (dir == null || dir.getFileName() == null) {
        return Optional.empty();
      }
      return Optional.of(new SourceUnit(Provider.COPILOT, file, dir.getFileName().toString(), null, null));
    }
    return Optional.of(new SourceUnit(Provider.COPILOT, file, name.substring(0, name.length() - 6), null, null));
  }

  @Override
  public TurnSignals turnSignals() {
    return new CopilotTurnSignals();
  }

  /** The newest event log since the launch whose {@code session.start} names the launch folder. */
  @Override
  public Optional<LiveTranscripts.Located> locate(LiveTranscripts.Launch launch, List<Path> roots) {
    return LiveLocate.newestNamingCwd(Provider.COPILOT, roots, launch, f -> true, this::unitFor);
  }

  @Override
  public ParseResult parse(SourceUnit unit, Cursor cursor) {
    SessionLines.Read<Events> read = SessionLines.read(unit, cursor, ClaudeCodeAdapter.DEFAULT_BATCH_BYTES, Events::new);
    return read.result(read.records(unit));
  }

  static String presentation(String name) {
    if (name == null) {
      return Presentations.GENERIC;
    }
    return switch (name) {
      case "bash", "shell", "powershell", "read_bash", "write_bash", "stop_bash" -> Presentations.SHELL;
      case "view", "read", "read_file" -> Presentations.READ;
      case "edit", "create", "str_replace_editor", "apply_patch", "write" -> Presentations.EDIT;
      case "grep", "glob", "rg", "search" -> Presentations.SEARCH;
      case "web_fetch", "fetch", "web_search" -> Presentations.WEB;
      case "update_todo", "todo", "write_todos" -> Presentations.TODO_LIST;
      case "task", "agent" -> Presentations.SUBAGENT;
      default -> name.contains("-") && name.indexOf('-') > 0 && name.startsWith("github-")
          ? Presentations.MCP : Presentations.GENERIC;
    };
  }

  /** One read's records plus the carry-over (current model, subagent calls) kept in the cursor. */
  private static final class Events extends SessionLines {
    final SourceUnit unit;
    final ObjectNode state;

    Events(SourceUnit unit, String stateJson) {
      this.unit = unit;
      ObjectNode s = stateObject(stateJson);
      state = s != null ? s : JsonlScan.MAPPER.createObjectNode();
      if (!(state.get("subagents") instanceof ObjectNode)) {
        state.putObject("subagents");
      }
    }

    @Override
    String stateJson() {
      return state.toString();
    }

    @Override
    public void line(ObjectNode node, long offset, long lineNo) {
      String type = Json.str(node, "type");
      if (type == null) {
        throw new JsonlScan.BadLine("event has no \"type\"");
      }
      JsonNode data = node.get("data");
      if (!(data instanceof ObjectNode d)) {
        throw new JsonlScan.BadLine("\"data\" is " + (data == null ? "missing" : "not an object"));
      }
      String ts = Json.timestamp(Json.str(node, "timestamp"));
      // Event ids are not always unique (redacted logs repeat one placeholder): the offset is.
      String uuid = "L" + offset;
      List<TranscriptRecord> out = new ArrayList<>(2);
      switch (type) {
        case "session.start", "session.resume" -> {
          if (Json.str(d, "sessionId") != null && !Json.str(d, "sessionId").equals(unit.sessionId())) {
            ignore("session.start (other session id)");
          }
          session.version(Json.str(d, "copilotVersion"));
          JsonNode ctx = Json.obj(d, "context");
          session.cwd(Json.str(ctx, "cwd"));
          session.gitBranch(Json.str(ctx, "branch"));
          model(Json.str(d, "selectedModel"));
          // A new run of the process: its shutdown totals count from here.
          state.remove("run");
        }
        case "session.model_change" -> model(Json.str(d, "newModel"));
        case "user.message" -> {
          String text = Json.str(d, "content");
          if (text == null || text.isBlank()) {
            ignore("user.message (empty)");
          } else {
            out.add(msg(d, uuid, offset, 0, ts, "user", text, ContentTypes.TEXT, false, null, null));
            if (thread(d) == null) {
              session.messageCount++;
              session.firstPrompt(text);
            }
          }
        }
        case "assistant.message" -> assistant(d, uuid, offset, ts, out);
        case "assistant.reasoning" -> {
          String text = Json.str(d, "content");
          out.add(msg(d, uuid, offset, 0, ts, "assistant", text == null || text.isBlank() ? null : text,
              ContentTypes.THINKING, false, model(d), null));
        }
        case "tool.execution_start" -> {
          String call = Json.str(d, "toolCallId");
          if (call == null) {
            ignore("tool.execution_start (no call id)");
          } else if (!state.path("calls").has(call)) {
            // Older logs start a tool before (or without) the message that requests it.
            toolCall(d, call, Json.str(d, "toolName"), d.get("arguments"), uuid, offset, 0, ts, out);
          } else {
            ignore("tool.execution_start");
          }
        }
        case "tool.execution_complete" -> {
          String call = Json.str(d, "toolCallId");
          if (call == null) {
            ignore("tool.execution_complete (no call id)");
          } else {
            JsonNode result = Json.obj(d, "result");
            String content = result == null ? null : Json.str(result, "content");
            if (content == null && result != null && result.get("content") != null) {
              content = result.get("content").toString();
            }
            out.add(new ToolResultRecord(unit.sessionId(), call, TranscriptRecord.ordinal(offset, 0), ts, content,
                !Json.bool(d, "success")));
          }
        }
        case "subagent.started", "subagent.completed" -> {
          String call = Json.str(d, "toolCallId");
          if (call == null) {
            ignore(type + " (no call id)");
          } else {
            ((ObjectNode) state.get("subagents")).put(call, true);
            out.add(new SubagentRecord(unit.sessionId(), threadId(call), call,
                GeminiMessages.firstNonBlank(Json.str(d, "agentDisplayName"), Json.str(d, "agentName")),
                Json.str(d, "agentDescription"), Json.lngOrNull(d, "durationMs"), Json.lngOrNull(d, "totalTokens"),
                null));
          }
        }
        case "abort" -> out.add(msg(d, uuid, offset, 0, ts, "user", Json.str(d, "reason") == null
            ? "[Aborted by user]" : "[Aborted by user: " + Json.str(d, "reason") + "]", ContentTypes.INTERRUPT, true,
            null, null));
        case "session.error" -> out.add(msg(d, uuid, offset, 0, ts, "system",
            GeminiMessages.firstNonBlank(Json.str(d, "message"), Json.str(d, "errorType"), "error"), ContentTypes.ERROR,
            true, null, null));
        case "session.usage_record" -> usageRecord(d, uuid, offset, ts, out);
        case "session.shutdown" -> shutdown(d, uuid, offset, ts, out);
        default -> ignore(type);
      }
      if (ts != null && !out.isEmpty()) {
        session.seen(ts);
      }
      records.addAll(out);
    }

    private void assistant(ObjectNode d, String uuid, long offset, String ts, List<TranscriptRecord> out) {
      String model = model(d);
      String reasoning = Json.str(d, "reasoningText");
      if (reasoning != null && !reasoning.isBlank()) {
        out.add(msg(d, uuid + "#thinking", offset, 0, ts, "assistant", reasoning, ContentTypes.THINKING, false, model,
            null));
      }
      String text = Json.str(d, "content");
      if (text != null && !text.isBlank()) {
        out.add(msg(d, uuid, offset, 1, ts, "assistant", text, ContentTypes.TEXT, false, model, null));
        if (thread(d) == null) {
          session.messageCount++;
        }
      } else {
        // Keeps the message the tool calls belong to (and its thread) in the records.
        out.add(msg(d, uuid, offset, 1, ts, "assistant", null, ContentTypes.USAGE, true, model, null));
      }
      JsonNode requests = d.get("toolRequests");
      if (requests != null && requests.isArray()) {
        int block = 2;
        for (JsonNode r : requests) {
          String call = Json.str(r, "toolCallId");
          toolCall(r, call != null ? call : uuid + "#" + block, Json.str(r, "name"), r.get("arguments"), uuid, offset,
              block++, ts, out);
        }
      }
    }

    private void toolCall(JsonNode d, String call, String name, JsonNode args, String messageUuid, long offset,
        int block, String ts, List<TranscriptRecord> out) {
      JsonNode input = args;
      if (args != null && args.isTextual()) {
        try {
          input = JsonlScan.MAPPER.readTree(args.asText());
        } catch (Exception e) {
          input = args; // not JSON: kept as the string it is
        }
      }
      ObjectNode calls = state.get("calls") instanceof ObjectNode c ? c : state.putObject("calls");
      calls.put(call, true);
      while (calls.size() > 256) {
        Iterator<String> it = calls.fieldNames();
        it.next();
        it.remove();
      }
      out.add(new ToolCallRecord(unit.sessionId(), call, messageUuid, TranscriptRecord.ordinal(offset, block), ts,
          name, presentation(name), Json.compact(input), input == null ? null
              : GeminiMessages.firstNonBlank(Json.str(input, "path"), Json.str(input, "file_path"))));
    }

    /**
     * One response's {@code usage} {model, inputTokens (with the cached part), outputTokens,
     * cacheReadTokens, cacheWriteTokens}: a response of its own, counted into the run's sums so the
     * shutdown's totals add only what no record covered.
     */
    private void usageRecord(ObjectNode d, String uuid, long offset, String ts, List<TranscriptRecord> out) {
      JsonNode u = Json.obj(d, "usage");
      if (u == null) {
        ignore("session.usage_record (no usage)");
        return;
      }
      String model = GeminiMessages.firstNonBlank(Json.str(u, "model"), Json.str(state, "model"));
      long in = Json.lng(u, "inputTokens");
      long outTokens = Json.lng(u, "outputTokens");
      long cached = Json.lng(u, "cacheReadTokens");
      long written = Json.lng(u, "cacheWriteTokens");
      ObjectNode run = state.get("run") instanceof ObjectNode r ? r : state.putObject("run");
      String key = model == null ? "" : model;
      ObjectNode sums = run.get(key) instanceof ObjectNode m ? m : run.putObject(key);
      sums.put("in", sums.path("in").asLong() + in);
      sums.put("out", sums.path("out").asLong() + outTokens);
      sums.put("cr", sums.path("cr").asLong() + cached);
      sums.put("cw", sums.path("cw").asLong() + written);
      out.add(usageCarrier(uuid, offset, 0, ts, model, new TokenUsage(Math.max(0, in - cached), outTokens, cached,
          written)));
    }

    /**
     * {@code modelMetrics}: per model {@code usage} {inputTokens, outputTokens, cacheReadTokens,
     * cacheWriteTokens} for the run the shutdown ends; input counts include the cached part, as on
     * the OpenAI API Copilot reports through. Older logs have only {@code tokenDetails} totals.
     */
    private void shutdown(ObjectNode d, String uuid, long offset, String ts, List<TranscriptRecord> out) {
      JsonNode metrics = Json.obj(d, "modelMetrics");
      int block = 0;
      boolean any = false;
      if (metrics != null) {
        for (Iterator<Map.Entry<String, JsonNode>> it = metrics.fields(); it.hasNext();) {
          Map.Entry<String, JsonNode> e = it.next();
          JsonNode u = Json.obj(e.getValue(), "usage");
          if (u == null) {
            continue;
          }
          // What this run's usage records already counted is not counted again.
          JsonNode seen = state.path("run").path(e.getKey());
          long in = Math.max(0, Json.lng(u, "inputTokens") - seen.path("in").asLong());
          long outTokens = Math.max(0, Json.lng(u, "outputTokens") - seen.path("out").asLong());
          long cached = Math.max(0, Json.lng(u, "cacheReadTokens") - seen.path("cr").asLong());
          long written = Math.max(0, Json.lng(u, "cacheWriteTokens") - seen.path("cw").asLong());
          any = true;
          if (in + outTokens + cached + written == 0) {
            continue;
          }
          out.add(usageCarrier(uuid, offset, block++, ts, e.getKey(),
              new TokenUsage(Math.max(0, in - cached), outTokens, cached, written)));
        }
      }
      JsonNode details = Json.obj(d, "tokenDetails");
      if (!any && details != null) {
        long cached = details.path("cache_read").path("tokenCount").asLong(0);
        TokenUsage usage = new TokenUsage(Math.max(0, details.path("input").path("tokenCount").asLong(0) - cached),
            details.path("output").path("tokenCount").asLong(0), cached,
            details.path("cache_write").path("tokenCount").asLong(0));
        out.add(usageCarrier(uuid, offset, block, ts, GeminiMessages.firstNonBlank(Json.str(d, "currentModel"),
            Json.str(state, "model")), usage));
        any = true;
      }
      if (!any) {
        ignore("session.shutdown (no token counts)");
      } else if (out.isEmpty()) {
        ignore("session.shutdown (its totals were all in usage records)");
      }
      state.remove("run");
    }

    private MessageRecord usageCarrier(String uuid, long offset, int block, String ts, String model, TokenUsage u) {
      String id = uuid + "#usage" + block;
      return new MessageRecord(unit.sessionId(), id, null, TranscriptRecord.ordinal(offset, block), ts, "assistant",
          null, ContentTypes.USAGE, true, Visibility.HIDDEN, model, false, null,
          "copilot:" + unit.sessionId() + "/" + id, u);
    }

    private String thread(JsonNode d) {
      String parent = Json.str(d, "parentToolCallId");
      return parent == null ? null : threadId(parent);
    }

    private static String threadId(String call) {
      return "subagent-" + call;
    }

    private String model(JsonNode d) {
      String m = Json.str(d, "model");
      return m != null ? m : Json.str(state, "model");
    }

    private void model(String m) {
      if (m != null && !m.isBlank() && !"auto".equals(m)) {
        state.put("model", m);
      }
    }

    private MessageRecord msg(JsonNode d, String uuid, long offset, int block, String ts, String role, String text,
        String contentType, boolean meta, String model, TokenUsage usage) {
      String thread = thread(d);
      Visibility v = ContentTypes.USAGE.equals(contentType) ? Visibility.HIDDEN : Visibility.VISIBLE;
      return new MessageRecord(unit.sessionId(), uuid, null, TranscriptRecord.ordinal(offset, block),
          ts, role, text, contentType, meta, v, model, thread != null, thread, null, usage);
    }
  }
}
