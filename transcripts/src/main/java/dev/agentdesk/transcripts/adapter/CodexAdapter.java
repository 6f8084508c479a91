package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.transcripts.LiveTranscripts;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.TurnSignals;
import dev.agentdesk.transcripts.records.ContentTypes;
import dev.agentdesk.transcripts.records.MessageRecord;
import dev.agentdesk.transcripts.records.TokenUsage;
import dev.agentdesk.transcripts.records.ToolCallRecord;
import dev.agentdesk.transcripts.records.ToolResultRecord;
import dev.agentdesk.transcripts.records.TranscriptRecord;
import dev.agentdesk.transcripts.records.Visibility;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Codex: {@code sessions/YYYY/MM/DD/rollout-*.jsonl}. Each line is an envelope
 * ({@code session_meta}, {@code turn_context}, {@code event_msg}, {@code response_item},
 * {@code compacted}) around a payload. The same conversation message is written twice (as an
 * event and as a response item) and is reconciled here into one record.
 */
public final class CodexAdapter implements ProviderAdapter {
  private static final Pattern ROLLOUT_ID = Pattern.compile(
      "([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\\.jsonl$");
  private final long batchBytes;

  public CodexAdapter() {
    this(ClaudeCodeAdapter.DEFAULT_BATCH_BYTES);
  }

  public CodexAdapter(long batchBytes) {
    this.batchBytes = batchBytes;
  }

  @Override
  public Provider provider() {
    return Provider.CODEX;
  }

  /** {@code $CODEX_HOME/sessions}, else {@code ~/.codex/sessions}. */
  @Override
  public List<Path> defaultRoots(Map<String, String> env, Path home) {
    Path dir = Env.dir(env, "CODEX_HOME");
    return List.of((dir != null ? dir : home.resolve(".codex")).resolve("sessions"));
  }

  @Override
  public boolean recognises(Path file, List<String> head) {
    return head.stream().anyMatch(l -> l.contains("\"session_meta\"") || l.contains("\"response_item\"")
        || l.contains("\"event_msg\"") || l.contains("\"turn_context\""));
  }

  @Override
  public Optional<SourceUnit> unitFor(Path file) {
    String name = file.getFileName().toString();
    if (!name.endsWith(".jsonl")) {
      return Optional.empty();
    }
    Matcher m = ROLLOUT_ID.matcher(name);
    String id = m.find() ? m.group(1) : name.substring(0, name.length() - ".jsonl".length());
    return Optional.of(new SourceUnit(Provider.CODEX, file, id, null, null));
  }

  @Override
  public TurnSignals turnSignals() {
    return new CodexTurnSignals();
  }

  /** The earliest rollout since the launch whose {@code session_meta} cwd is the launch folder ({@link CodexLocate}). */
  @Override
  public Optional<LiveTranscripts.Located> locate(LiveTranscripts.Launch launch, List<Path> roots) {
    return CodexLocate.earliestInCwd(launch, roots);
  }

  @Override
  public ParseResult parse(SourceUnit unit, Cursor cursor) {
    SessionLines.Read<CodexLineParser> read = SessionLines.read(unit, cursor, batchBytes, CodexLineParser::new);
    return read.result(read.records(unit));
  }

  /** Per-read state plus the carry-over kept in the cursor. */
  static final class CodexLineParser extends SessionLines {
    private static final int PENDING_LIMIT = 64;
    private final SourceUnit unit;
    private final ObjectNode state;

    CodexLineParser(SourceUnit unit, String stateJson) {
      this.unit = unit;
      ObjectNode s = null;
      if (stateJson != null) {
        try {
          s = (ObjectNode) JsonlScan.MAPPER.readTree(stateJson);
        } catch (Exception e) {
          s = null; // losing the carry-over only loses cross-batch reconciliation, never records
        }
      }
      state = s != null ? s : JsonlScan.MAPPER.createObjectNode();
      if (!(state.get("pending") instanceof ArrayNode)) {
        state.putArray("pending");
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
        throw new JsonlScan.BadLine("line has no \"type\"");
      }
      JsonNode payload = node.get("payload");
      if (!(payload instanceof ObjectNode p)) {
        throw new JsonlScan.BadLine("\"payload\" is " + (payload == null ? "missing" : "not an object"));
      }
      String ts = Json.timestamp(Json.str(node, "timestamp"));
      List<TranscriptRecord> out = new ArrayList<>(2);
      if (state.path("replaying").asBoolean(false) && !endsReplay(type, p)) {
        ignore("replayed parent history");
        return;
      }
      switch (type) {
        case "session_meta" -> sessionMeta(p);
        case "turn_context" -> {
          if (Json.str(p, "model") != null) {
            state.put("model", Json.str(p, "model"));
          }
          session.cwd(Json.str(p, "cwd"));
        }
        case "event_msg" -> event(p, ts, offset, out);
        case "response_item" -> responseItem(p, ts, offset, out);
        case "compacted" -> {
          String text = Json.str(p, "message");
          out.add(msg("L" + offset, offset, ts, "system", text == null || text.isBlank() ? "Conversation compacted"
              : text, ContentTypes.COMPACT_BOUNDARY, true, Visibility.VISIBLE, null, null));
        }
        default -> ignore(type);
      }
      if (ts != null && !out.isEmpty()) {
        session.seen(ts);
      }
      records.addAll(out);
    }

    // ---- session identity and fork replay --------------------------------------------------

    private void sessionMeta(ObjectNode p) {
      String id = Json.str(p, "id");
      if (!state.path("metaSeen").asBoolean(false)) {
        state.put("metaSeen", true);
        if (id != null) {
          state.put("ownId", id);
        }
        session.cwd(Json.str(p, "cwd"));
        session.version(Json.str(p, "cli_version"));
        JsonNode git = Json.obj(p, "git");
        session.gitBranch(git == null ? null : Json.str(git, "branch"));
        JsonNode source = p.get("source");
        boolean forked = Json.str(p, "forked_from_id") != null
            || (source != null && source.isObject() && source.has("subagent"));
        state.put("forked", forked);
        long created = uuidV7Millis(id);
        if (created < 0) {
          String ts = Json.timestamp(Json.str(p, "timestamp"));
          created = ts == null ? Long.MAX_VALUE : java.time.Instant.parse(ts).toEpochMilli();
        }
        state.put("createdMillis", created);
        return;
      }
      if (id != null && !id.equals(Json.str(state, "ownId"))) {
        // A second identity in the file is the parent's history being replayed into a fork or
        // subagent rollout: skip it until the file's own turns begin.
        state.put("replaying", true);
        ignore("replayed parent history");
      } else {
        ignore("session_meta (repeated)");
      }
    }

    /** The replay ends at the first turn minted at or after this rollout was created. */
    private boolean endsReplay(String type, ObjectNode p) {
      if (!"turn_context".equals(type)) {
        return false;
      }
      long turn = uuidV7Millis(Json.str(p, "turn_id"));
      if (turn < 0 || turn >= state.path("createdMillis").asLong(Long.MAX_VALUE)) {
        state.put("replaying", false);
        return true;
      }
      return false;
    }

    static long uuidV7Millis(String uuid) {
      if (uuid == null || uuid.length() != 36 || uuid.charAt(14) != '7') {
        return -1;
      }
      try {
        return Long.parseLong(uuid.substring(0, 8) + uuid.substring(9, 13), 16);
      } catch (NumberFormatException e) {
        return -1;
      }
    }

    // ---- events -----------------------------------------------------------------------------

    private void event(ObjectNode p, String ts, long offset, List<TranscriptRecord> out) {
      String kind = Json.str(p, "type");
      if (kind == null) {
        ignore("event_msg");
        return;
      }
      switch (kind) {
        case "user_message" -> conversation("event", "user", Json.str(p, "message"), ts, offset, out);
        case "agent_message" -> conversation("event", "assistant", Json.str(p, "message"), ts, offset, out);
        case "agent_reasoning" -> thinking("event", Json.str(p, "text"), ts, offset, out);
        case "token_count" -> tokenCount(p, ts, offset, out);
        case "turn.completed" -> {
          JsonNode u = Json.obj(p, "usage");
          if (u != null) {
            out.add(usageCarrier(offset, ts, normalise(u), Json.str(p, "model")));
          } else {
            ignore("event_msg turn.completed");
          }
        }
        case "thread_name_updated" -> {
          String name = firstText(p, "thread_name", "name", "title");
          session.title(name, 2);
          if (name == null) {
            ignore("event_msg thread_name_updated");
          }
        }
        case "turn_aborted" -> {
          // The user stopped the turn: the same interrupt card as Claude's "[Request interrupted by user]".
          String reason = Json.str(p, "reason");
          out.add(msg("L" + offset, offset, ts, "user", "interrupted".equals(reason) || reason == null
              ? "[Turn interrupted by user]" : "[Turn aborted: " + reason + "]", ContentTypes.INTERRUPT, true,
              Visibility.VISIBLE, null, null));
        }
        case "error" -> {
          JsonNode err = Json.obj(p, "error");
          String text = Json.str(p, "message") != null ? Json.str(p, "message") : err == null ? null
              : Json.str(err, "message");
          out.add(msg("L" + offset, offset, ts, "system", text == null ? "error" : text, ContentTypes.ERROR, true,
              Visibility.VISIBLE, null, null));
        }
        default -> ignore("event_msg " + kind);
      }
    }

    private void tokenCount(ObjectNode p, String ts, long offset, List<TranscriptRecord> out) {
      // The plan's windows ride on token counts, also on those without usage or repeating the last.
      records.addAll(CodexRateLimits.read(unit.sessionId(), offset, ts, p.get("rate_limits")));
      JsonNode info = p.get("info");
      if (info == null || !info.isObject()) {
        ignore("event_msg token_count (no info)");
        return;
      }
      JsonNode last = Json.obj(info, "last_token_usage");
      JsonNode total = Json.obj(info, "total_token_usage");
      TokenUsage usage;
      if (total != null) {
        String key = total.toString();
        if (key.equals(Json.str(state, "lastTotal"))) {
          // Codex repeats the last count (for example after a rate-limit update): same response.
          ignore("event_msg token_count (repeated)");
          return;
        }
        state.put("lastTotal", key);
      }
      if (last != null) {
        usage = normalise(last);
      } else if (total != null) {
        TokenUsage now = normalise(total);
        JsonNode prev = state.get("prevTotal");
        TokenUsage before = prev == null ? TokenUsage.ZERO : new TokenUsage(prev.path(0).asLong(), prev.path(1).asLong(),
            prev.path(2).asLong(), prev.path(3).asLong());
        usage = new TokenUsage(now.input() - before.input(), now.output() - before.output(),
            now.cacheRead() - before.cacheRead(), now.cacheCreation() - before.cacheCreation());
      } else if (info.has("prompt") || info.has("completion")) {
        usage = new TokenUsage(Json.lng(info, "prompt"), Json.lng(info, "completion"), 0, 0);
      } else {
        usage = normalise(info);
      }
      if (total != null) {
        TokenUsage now = normalise(total);
        state.putArray("prevTotal").add(now.input()).add(now.output()).add(now.cacheRead()).add(now.cacheCreation());
      }
      out.add(usageCarrier(offset, ts, usage, Json.str(info, "model")));
    }

    /** Codex input counts include cached input; canonical input excludes it. */
    private static TokenUsage normalise(JsonNode u) {
      long input = Json.lng(u, "input_tokens");
      long cached = Json.lng(u, "cached_input_tokens");
      return new TokenUsage(Math.max(0, input - cached), Json.lng(u, "output_tokens"), cached,
          Json.lng(u, "cache_write_input_tokens"));
    }

    private MessageRecord usageCarrier(long offset, String ts, TokenUsage usage, String model) {
      String uuid = "L" + offset;
      return new MessageRecord(unit.sessionId(), uuid, Json.str(state, "lastAssistant"),
          TranscriptRecord.ordinal(offset, 0), ts, "assistant", null, ContentTypes.USAGE, true, Visibility.HIDDEN,
          model != null ? model : Json.str(state, "model"), false, null,
          // Scoped to the session: byte offsets repeat across rollout files.
          "token_count:" + unit.sessionId() + "/" + uuid, usage);
    }

    // ---- response items ---------------------------------------------------------------------

    private void responseItem(ObjectNode p, String ts, long offset, List<TranscriptRecord> out) {
      String kind = Json.str(p, "type");
      if (kind == null) {
        ignore("response_item");
        return;
      }
      switch (kind) {
        case "message" -> message(p, ts, offset, out);
        case "reasoning" -> {
          StringBuilder sb = new StringBuilder();
          JsonNode summary = p.get("summary");
          if (summary != null && summary.isArray()) {
            for (JsonNode s : summary) {
              String t = Json.str(s, "text");
              if (t != null && !t.isBlank()) {
                sb.append(sb.length() > 0 ? "\n\n" : "").append(t);
              }
            }
          }
          thinking("response", sb.length() == 0 ? null : sb.toString(), ts, offset, out);
        }
        case "function_call", "custom_tool_call", "local_shell_call", "web_search_call", "tool_search_call",
            "image_generation_call", "tool_call" -> toolCall(kind, p, ts, offset, out);
        case "function_call_output", "custom_tool_call_output", "tool_search_output", "tool_result" ->
            toolOutput(kind, p, ts, offset, out);
        default -> ignore("response_item " + kind);
      }
    }

    private void message(ObjectNode p, String ts, long offset, List<TranscriptRecord> out) {
      String role = Json.str(p, "role");
      if ("developer".equals(role) || "system".equals(role)) {
        ignore("response_item message (" + role + ")");
        return;
      }
      String text = CodexEnvelopes.text(p.get("content"));
      if ("user".equals(role) && CodexEnvelopes.isHiddenContext(text)) {
        out.add(msg("L" + offset, offset, ts, "user", text, ContentTypes.ENVELOPE, true, Visibility.HIDDEN, null,
            null));
        return;
      }
      if (!"user".equals(role) && !"assistant".equals(role)) {
        ignore("response_item message (" + role + ")");
        return;
      }
      conversation("response", role, text, ts, offset, out);
    }

    /** Emits a conversation message unless its twin from the other stream was already emitted. */
    private void conversation(String stream, String role, String text, String ts, long offset,
        List<TranscriptRecord> out) {
      if (text == null || text.isBlank()) {
        ignore(stream + " " + role + " message (empty)");
        return;
      }
      if (reconciled(stream, role + "\u0000" + text.strip())) {
        return;
      }
      String uuid = "L" + offset;
      String model = "assistant".equals(role) ? Json.str(state, "model") : null;
      out.add(msg(uuid, offset, ts, role, text, ContentTypes.TEXT, false, Visibility.VISIBLE, model, null));
      session.messageCount++;
      if ("user".equals(role)) {
        session.firstPrompt(text);
      } else {
        state.put("lastAssistant", uuid);
      }
    }

    private void thinking(String stream, String text, String ts, long offset, List<TranscriptRecord> out) {
      if (text != null && reconciled(stream, "thinking\u0000" + text.strip())) {
        return;
      }
      out.add(msg("L" + offset, offset, ts, "assistant", text, ContentTypes.THINKING, false, Visibility.VISIBLE,
          Json.str(state, "model"), null));
    }

    /**
     * True when the same content already came from the other stream (and consumes that mark);
     * otherwise remembers this one.
     */
    private boolean reconciled(String stream, String key) {
      ArrayNode pending = (ArrayNode) state.get("pending");
      String other = ("event".equals(stream) ? "response" : "event") + "\u0000" + key;
      for (int i = 0; i < pending.size(); i++) {
        if (pending.get(i).asText().equals(other)) {
          pending.remove(i);
          return true;
        }
      }
      pending.add(stream + "\u0000" + key);
      while (pending.size() > PENDING_LIMIT) {
        pending.remove(0);
      }
      return false;
    }

    private void toolCall(String kind, ObjectNode p, String ts, long offset, List<TranscriptRecord> out) {
      String id = firstText(p, "call_id", "id");
      if (id == null) {
        id = "L" + offset;
      }
      JsonNode fn = Json.obj(p, "function");
      String name = firstText(p, "name");
      if (name == null && fn != null) {
        name = Json.str(fn, "name");
      }
      if (name == null) {
        name = kind;
      }
      JsonNode input = p.has("arguments") ? p.get("arguments") : p.has("input") ? p.get("input")
          : p.has("action") ? p.get("action") : null;
      String inputJson = CodexEnvelopes.inputJson(input);
      if ("tool_call".equals(kind)) {
        state.put("driftCall", id);
      }
      out.add(new ToolCallRecord(unit.sessionId(), id, Json.str(state, "lastAssistant"),
          TranscriptRecord.ordinal(offset, 0), ts, name, CodexEnvelopes.presentation(name), inputJson,
          CodexEnvelopes.filePath(name, input)));
    }

    private void toolOutput(String kind, ObjectNode p, String ts, long offset, List<TranscriptRecord> out) {
      String id = Json.str(p, "call_id");
      if (id == null && "tool_result".equals(kind)) {
        id = Json.str(state, "driftCall");
        state.remove("driftCall");
      }
      if (id == null) {
        id = "L" + offset;
      }
      JsonNode output = p.has("output") ? p.get("output") : p.has("result") ? p.get("result") : p.get("tools");
      CodexEnvelopes.Output o = CodexEnvelopes.output(output);
      out.add(new ToolResultRecord(unit.sessionId(), id, TranscriptRecord.ordinal(offset, 0), ts, o.text(),
          o.isError()));
    }

    private MessageRecord msg(String uuid, long offset, String ts, String role, String text, String contentType,
        boolean isMeta, Visibility visibility, String model, TokenUsage usage) {
      return new MessageRecord(unit.sessionId(), uuid, null, TranscriptRecord.ordinal(offset, 0), ts, role, text,
          contentType, isMeta, visibility, model, false, null, null, usage);
    }

    private static String firstText(JsonNode node, String... fields) {
      for (String f : fields) {
        String v = Json.str(node, f);
        if (v != null) {
          return v;
        }
      }
      return null;
    }
  }
}
