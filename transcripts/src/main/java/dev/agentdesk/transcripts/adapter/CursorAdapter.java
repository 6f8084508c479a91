package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.transcripts.Provider;
import dev.agentdesk.transcripts.TurnSignals;
import dev.agentdesk.transcripts.records.ContentTypes;
import dev.agentdesk.transcripts.records.MessageRecord;
import dev.agentdesk.transcripts.records.ToolCallRecord;
import dev.agentdesk.transcripts.records.ToolResultRecord;
import dev.agentdesk.transcripts.records.TranscriptRecord;
import dev.agentdesk.transcripts.records.Visibility;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Cursor's CLI agent: {@code ~/.cursor/projects/<flattened cwd>/agent-transcripts/<id>/<id>.jsonl},
 * subagents in {@code <id>/subagents/<child>.jsonl}. A line is {@code {role, message: {content:
 * [blocks]}}} with Anthropic-style blocks ({@code text}, {@code thinking}, {@code tool_use},
 * {@code tool_result}; drift spellings {@code tool_call}, {@code tool-result}), or a
 * {@code {"type": "turn_ended"}} marker. The transcript has no ids, timestamps or token counts:
 * records are identified by their byte offset, calls without an id are answered by the next results
 * in order, and the session has no times and no usage.
 */
public final class CursorAdapter implements ProviderAdapter {
  @Override
  public Provider provider() {
    return Provider.CURSOR;
  }

  /** {@code $CURSOR_CONFIG_DIR/projects}, else {@code ~/.cursor/projects}. */
  @Override
  public List<Path> defaultRoots(Map<String, String> env, Path home) {
    Path dir = Env.dir(env, "CURSOR_CONFIG_DIR");
    return List.of((dir != null ? dir : home.resolve(".cursor")).resolve("projects"));
  }

  @Override
  public List<SourceUnit> discover(Path root) throws IOException {
    return LaidOutFiles.discover(root, "agent-transcripts", this::unitFor);
  }

  @Override
  public boolean recognises(Path file, List<String> head) {
    // Claude Code lines carry sessionId and uuid; Cursor's carry only a role and a message.
    return !head.isEmpty() && head.get(0).startsWith("{\"role\"") && !head.get(0).contains("\"sessionId\"")
        && !head.get(0).contains("\"uuid\"");
  }

  @Override
  public Optional<SourceUnit> unitFor(Path file) {
    String name = file.getFileName().toString();
    if (!name.endsWith(".jsonl")) {
      return Optional.empty();
    }
    String stem = name.substring(0, name.length() - ".jsonl".length());
    Path dir = file.toAbsolutePath().getParent();
    if (dir != null && dir.getFileName() != null && dir.getFileName().toString().equals("subagents")) {
      Path parentDir = dir.getParent();
      String parent = parentDir == null || parentDir.getFileName() == null ? null : parentDir.getFileName().toString();
      // A child's name is only unique under its parent.
      return Optional.of(new SourceUnit(Provider.CURSOR, file, parent == null ? stem : parent + "." + stem, parent,
          stem));
    }
    return Optional.of(new SourceUnit(Provider.CURSOR, file, stem, null, null));
  }

  @Override
  public TurnSignals turnSignals() {
    return new CursorTurnSignals();
  }

  @Override
  public ParseResult parse(SourceUnit unit, Cursor cursor) {
    SessionLines.Read<Lines> read = SessionLines.read(unit, cursor, ClaudeCodeAdapter.DEFAULT_BATCH_BYTES, Lines::new);
    if (read.out().fromStart()) {
      project(unit, read.lines().session);
    }
    return read.result(read.records(unit));
  }

  /** {@code projects/<flattened cwd>/agent-transcripts/…}: the flattened name is all the transcript says of it. */
  private static void project(SourceUnit unit, SessionAccumulator session) {
    for (Path p = unit.file().toAbsolutePath().getParent(); p != null && p.getParent() != null; p = p.getParent()) {
      if (p.getFileName() != null && p.getFileName().toString().equals("agent-transcripts")) {
        Path projectDir = p.getParent();
        if (projectDir.getFileName() != null) {
          session.project = projectDir.getFileName().toString();
        }
        return;
      }
    }
  }

  /** Cursor's own tool names, else the Claude-style names its transcripts also use. */
  static String presentation(String name) {
    if (name == null) {
      return dev.agentdesk.transcripts.records.Presentations.GENERIC;
    }
    return switch (name) {
      case "run_terminal_cmd", "run_terminal_command", "Shell" -> dev.agentdesk.transcripts.records.Presentations.SHELL;
      case "read_file", "ReadFile" -> dev.agentdesk.transcripts.records.Presentations.READ;
      case "edit_file", "search_replace", "write", "delete_file", "StrReplace", "Write", "Delete" ->
          dev.agentdesk.transcripts.records.Presentations.EDIT;
      case "grep_search", "codebase_search", "list_dir", "file_search", "glob_file_search", "Glob", "LS" ->
          dev.agentdesk.transcripts.records.Presentations.SEARCH;
      case "web_search", "WebFetch", "WebSearch" -> dev.agentdesk.transcripts.records.Presentations.WEB;
      case "todo_write", "TodoWrite" -> dev.agentdesk.transcripts.records.Presentations.TODO_LIST;
      default -> ClaudeBlocks.presentation(name);
    };
  }

  private static final class Lines extends SessionLines {
    final SourceUnit unit;
    /** Calls still waiting for a result, oldest first (results name no call). */
    final ArrayNode pending;
    String model;

    Lines(SourceUnit unit, String stateJson) {
      this.unit = unit;
      ObjectNode s = stateObject(stateJson);
      pending = s != null && s.get("pending") instanceof ArrayNode a ? a : JsonlScan.MAPPER.createArrayNode();
      model = s != null ? Json.str(s, "model") : null;
    }

    @Override
    String stateJson() {
      ObjectNode s = JsonlScan.MAPPER.createObjectNode();
      s.set("pending", pending);
      if (model != null) {
        s.put("model", model);
      }
      return s.toString();
    }

    @Override
    public void line(ObjectNode node, long offset, long lineNo) {
      String role = Json.str(node, "role");
      if (role == null) {
        String type = Json.str(node, "type");
        if ("turn_ended".equals(type)) {
          String status = Json.str(node, "status");
          if (status != null && (status.equals("aborted") || status.equals("cancelled") || status.equals("canceled"))) {
            records.add(msg("L" + offset, offset, 0, "user", "[Turn " + status + " by user]", ContentTypes.INTERRUPT,
                true));
          } else if (status != null && status.equals("error")) {
            records.add(msg("L" + offset, offset, 0, "system", "Turn ended with an error", ContentTypes.ERROR, true));
          } else {
            ignore("turn_ended");
          }
          return;
        }
        throw new JsonlScan.BadLine(type == null ? "line has neither \"role\" nor \"type\"" : "unknown line type " + type);
      }
      if (Json.str(node, "model") != null) {
        model = Json.str(node, "model");
      }
      JsonNode message = Json.obj(node, "message");
      JsonNode content = message == null ? null : message.get("content");
      if (content == null || content.isNull()) {
        throw new JsonlScan.BadLine("\"message.content\" is missing");
      }
      if (content.isTextual()) {
        text(role, content.asText(), offset, 0);
        return;
      }
      if (!content.isArray()) {
        throw new JsonlScan.BadLine("\"message.content\" is neither text nor a list");
      }
      StringBuilder userText = new StringBuilder();
      int block = 0;
      for (JsonNode b : content) {
        block++;
        String bt = Json.str(b, "type");
        if (bt == null) {
          continue;
        }
        switch (bt) {
          case "text", "custom_block" -> {
            String t = Json.str(b, "text");
            if (t != null && !t.isBlank()) {
              if ("user".equals(role)) {
                userText.append(userText.length() > 0 ? "\n\n" : "").append(t);
              } else {
                text(role, t, offset, block);
              }
            } else if (!"text".equals(bt)) {
              ignore("block " + bt);
            }
          }
          case "thinking" -> {
            String t = Json.str(b, "thinking");
            records.add(msg("L" + offset + "#" + block, offset, block, "assistant", t == null || t.isBlank() ? null : t,
                ContentTypes.THINKING, false));
          }
          case "tool_use", "tool_call" -> {
            String name = Json.str(b, "name");
            String id = Json.str(b, "id") != null ? Json.str(b, "id") : "L" + offset + "#" + block;
            JsonNode input = b.get("input");
            records.add(new ToolCallRecord(unit.sessionId(), id, null, TranscriptRecord.ordinal(offset, block), null,
                name, presentation(name), Json.compact(input), input == null ? null
                    : GeminiMessages.firstNonBlank(Json.str(input, "file_path"), Json.str(input, "path"))));
            pending.add(id);
            while (pending.size() > 256) {
              pending.remove(0);
            }
          }
          case "tool_result", "tool-result" -> result(b, offset, block);
          default -> ignore("block " + bt);
        }
      }
      if (userText.length() > 0) {
        text(role, userText.toString(), offset, 0);
      }
    }

    private void result(JsonNode b, long offset, int block) {
      String named = Json.str(b, "tool_use_id");
      String id = null;
      for (int i = 0; i < pending.size(); i++) {
        if (named != null && named.equals(pending.get(i).asText())) {
          id = pending.remove(i).asText();
          break;
        }
      }
      if (id == null && !pending.isEmpty()) {
        // Calls carry no ids here: results answer them in order.
        id = pending.remove(0).asText();
      }
      if (id == null) {
        id = named != null ? named : "L" + offset + "#" + block;
      }
      JsonNode c = b.get("content");
      String text;
      if (c == null || c.isNull()) {
        text = null;
      } else if (c.isTextual()) {
        text = c.asText();
      } else if (c.isArray()) {
        StringBuilder sb = new StringBuilder();
        for (JsonNode p : c) {
          String t = p.isTextual() ? p.asText() : Json.str(p, "text");
          if (t != null) {
            sb.append(sb.length() > 0 ? "\n\n" : "").append(t);
          }
        }
        text = sb.toString();
      } else {
        text = c.toString();
      }
      records.add(new ToolResultRecord(unit.sessionId(), id, TranscriptRecord.ordinal(offset, block), null, text,
          Json.bool(b, "is_error")));
    }

    private void text(String role, String text, long offset, int block) {
      if (text == null || text.isBlank()) {
        return;
      }
      String shown = text;
      if ("user".equals(role)) {
        // Cursor wraps what the user typed in <user_query>; anything around it is attached context.
        int a = text.indexOf("<user_query>");
        int z = text.indexOf("</user_query>");
        if (a >= 0 && z > a) {
          shown = text.substring(a + "<user_query>".length(), z).strip();
          String rest = (text.substring(0, a) + text.substring(z + "</user_query>".length())).strip();
          if (!rest.isEmpty()) {
            records.add(new MessageRecord(unit.sessionId(), "L" + offset + "#context", null,
                TranscriptRecord.ordinal(offset, block) + 1, null, "user", rest, ContentTypes.ENVELOPE, true,
                Visibility.HIDDEN, null, false, null, null, null));
          }
        }
      }
      String uuid = block == 0 ? "L" + offset : "L" + offset + "#" + block;
      records.add(msg(uuid, offset, block, role.equals("assistant") ? "assistant" : role, shown, ContentTypes.TEXT,
          false));
      if ("user".equals(role) || "assistant".equals(role)) {
        session.messageCount++;
        if ("user".equals(role)) {
          session.firstPrompt(shown);
        }
      }
    }

    private MessageRecord msg(String uuid, long offset, int block, String role, String text, String contentType,
        boolean meta) {
      return new MessageRecord(unit.sessionId(), uuid, null, TranscriptRecord.ordinal(offset, block), null, role, text,
          contentType, meta, Visibility.VISIBLE, "assistant".equals(role) ? model : null, false, null, null, null);
    }
  }
}
