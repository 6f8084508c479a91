package dev.agentdesk.agents;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Reads a transcript as it grows and keeps the {@link TurnState}. It looks at the few fields that
 * say where a turn stands (line type, Claude's {@code stop_reason} and tool_use/tool_result ids,
 * Codex task and call events), which the canonical records do not carry (a stop reason is a live
 * signal, not history); the transcript's content is always read through the transcripts module.
 * Not thread-safe: one reader per session, called from the service's poller.
 */
final class TurnReader {
  /** Tool calls that mean "the agent asks the user" until their result arrives. */
  static final Set<String> QUESTION_TOOLS = Set.of("AskUserQuestion", "ExitPlanMode");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_READ = 4 << 20;

  private final Path file;
  private long offset;
  private final StringBuilder partial = new StringBuilder();
  /** Pending tool calls: id → question text (question tools) or null (others). */
  private final Map<String, String[]> pending = new LinkedHashMap<>();
  private TurnState.Phase phase = TurnState.Phase.UNKNOWN;
  private long lastUserSeq;
  private long seq;
  /** Codex: a task_started not yet followed by task_complete. */
  private boolean taskOpen;

  TurnReader(Path file) {
    this.file = file;
  }

  Path file() {
    return file;
  }

  /** Bytes of the file read so far (whole lines and a partial last line). */
  long offset() {
    return offset;
  }

  /** Reads what was appended since the last call; true when at least one line was read. */
  boolean poll() {
    byte[] bytes;
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
      long len = f.length();
      if (len < offset) { // rewritten: start over
        offset = 0;
        partial.setLength(0);
        pending.clear();
        phase = TurnState.Phase.UNKNOWN;
        taskOpen = false;
      }
      if (len == offset) {
        return false;
      }
      int n = (int) Math.min(MAX_READ, len - offset);
      bytes = new byte[n];
      f.seek(offset);
      f.readFully(bytes);
    } catch (IOException e) {
      return false;
    }
    // Only whole lines: a last line without its newline is a write in progress.
    int end = bytes.length;
    while (end > 0 && bytes[end - 1] != '\n') {
      end--;
    }
    if (end == 0 && bytes.length < MAX_READ) {
      return false;
    }
    offset += end == 0 ? bytes.length : end;
    boolean any = false;
    for (String line : new String(bytes, 0, end == 0 ? bytes.length : end, StandardCharsets.UTF_8).split("\n")) {
      if (!line.isBlank()) {
        any |= accept(line);
      }
    }
    return any;
  }

  TurnState state() {
    String[] q = null;
    long qSeq = 0;
    int others = 0;
    for (String[] p : pending.values()) {
      if (p[0] != null) {
        q = p;
        qSeq = Long.parseLong(p[2]);
      } else {
        others++;
      }
    }
    return new TurnState(phase, q == null ? null : q[0], q == null ? null : q[1], qSeq, others, lastUserSeq, seq);
  }

  /** Folds one line in; false when it is not JSON. Public to the package for the corpus measurement. */
  boolean accept(String line) {
    JsonNode o;
    try {
      o = JSON.readTree(line);
    } catch (IOException e) {
      return false;
    }
    if (o == null || !o.isObject()) {
      return false;
    }
    seq++;
    String type = o.path("type").asText("");
    switch (type) {
      case "user", "assistant", "system" -> claude(type, o);
      case "event_msg", "response_item" -> codex(type, o.path("payload"));
      default -> { }
    }
    return true;
  }

  private void claude(String type, JsonNode o) {
    if (o.path("isSidechain").asBoolean(false)) {
      return; // a subagent's lines say nothing about the main turn
    }
    JsonNode msg = o.path("message");
    if (type.equals("system")) {
      String sub = o.path("subtype").asText("");
      if (sub.equals("turn_duration") || sub.equals("stop_hook_summary")) {
        phase = TurnState.Phase.TURN_ENDED;
      }
      return;
    }
    JsonNode content = msg.path("content");
    if (type.equals("user")) {
      boolean toolResult = false;
      if (content.isArray()) {
        for (JsonNode b : content) {
          if ("tool_result".equals(b.path("type").asText())) {
            toolResult = true;
            pending.remove(b.path("tool_use_id").asText());
          }
        }
      }
      if (toolResult) {
        phase = TurnState.Phase.IN_TURN; // the model answers the result next
      } else if (!o.path("isMeta").asBoolean(false) && !isCommandEcho(content)) {
        lastUserSeq = seq;
        pending.clear();
        phase = TurnState.Phase.IN_TURN;
      }
      return;
    }
    // assistant
    boolean text = false;
    if (content.isArray()) {
      for (JsonNode b : content) {
        String bt = b.path("type").asText();
        if ("tool_use".equals(bt)) {
          String name = b.path("name").asText("");
          String question = QUESTION_TOOLS.contains(name) ? questionText(name, b.path("input")) : null;
          pending.put(b.path("id").asText(), new String[] {question, name, Long.toString(seq)});
        } else if ("text".equals(bt)) {
          text = true;
        }
      }
    }
    String stop = msg.path("stop_reason").asText("");
    if (stop.equals("end_turn") || stop.equals("stop_sequence")) {
      phase = TurnState.Phase.TURN_ENDED;
    } else if (stop.equals("tool_use") || !pending.isEmpty()) {
      phase = TurnState.Phase.IN_TURN;
    } else if (text) {
      // Visible text with no stop reason: the model has spoken, and whether more follows is not
      // written down. Older Claude versions write null on every line and no turn_duration, so
      // this must not count as "mid-turn" (it would clear every real question they ask).
      phase = TurnState.Phase.UNKNOWN;
    }
    // thinking-only lines change nothing
  }

  private void codex(String type, JsonNode p) {
    String t = p.path("type").asText("");
    if (type.equals("event_msg")) {
      switch (t) {
        case "user_message" -> {
          lastUserSeq = seq;
          pending.clear();
          phase = TurnState.Phase.IN_TURN;
        }
        case "task_started" -> {
          taskOpen = true;
          phase = TurnState.Phase.IN_TURN;
        }
        case "task_complete", "turn_aborted", "turn.completed" -> {
          taskOpen = false;
          pending.clear();
          phase = TurnState.Phase.TURN_ENDED;
        }
        // A message inside an open task is mid-turn (Codex closes every task it opens); without
        // task events (older rollouts) it says nothing either way.
        case "agent_message" -> phase = taskOpen || !pending.isEmpty() ? TurnState.Phase.IN_TURN
            : TurnState.Phase.UNKNOWN;
        default -> { }
      }
      return;
    }
    switch (t) {
      case "function_call", "custom_tool_call", "local_shell_call" -> {
        pending.put(p.path("call_id").asText(), new String[] {null, p.path("name").asText(""), Long.toString(seq)});
        phase = TurnState.Phase.IN_TURN;
      }
      case "function_call_output", "custom_tool_call_output" -> {
        pending.remove(p.path("call_id").asText());
        phase = TurnState.Phase.IN_TURN;
      }
      default -> { }
    }
  }

  /** A slash command or its output echoed as a user line: not a prompt. */
  private static boolean isCommandEcho(JsonNode content) {
    String text = content.isTextual() ? content.asText()
        : content.isArray() && content.size() > 0 ? content.get(0).path("text").asText("") : "";
    return text.startsWith("<command-") || text.startsWith("<local-command-");
  }

  /** The question an AskUserQuestion / ExitPlanMode call asks, as the user would read it. */
  static String questionText(String tool, JsonNode input) {
    if (tool.equals("AskUserQuestion")) {
      JsonNode qs = input.path("questions");
      if (qs.isArray() && qs.size() > 0) {
        String q = qs.get(0).path("question").asText("");
        if (!q.isBlank()) {
          return q;
        }
      }
      String q = input.path("question").asText("");
      return q.isBlank() ? "The agent asks a question" : q;
    }
    return "Approve the plan?";
  }
}
