package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.transcripts.TurnSignal;
import dev.agentdesk.transcripts.TurnSignals;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Claude Code's turn, live: a prompt is a {@code user} line that is neither a tool result, a meta
 * line nor a slash-command echo; {@code tool_use} blocks open calls that {@code tool_result} blocks
 * close; {@code stop_reason} {@code end_turn}/{@code stop_sequence} and the {@code system} lines
 * {@code turn_duration}/{@code stop_hook_summary} end the turn. Sidechain (subagent) lines say
 * nothing about the main turn.
 */
final class ClaudeTurnSignals implements TurnSignals {
  /** Tool calls that mean "the agent asks the user" until their result arrives. */
  static final Set<String> QUESTION_TOOLS = Set.of("AskUserQuestion", "ExitPlanMode");

  @Override
  public boolean read(String line, Consumer<TurnSignal> out) {
    JsonNode o = LiveLines.object(line);
    if (o == null) {
      return false;
    }
    String type = o.path("type").asText("");
    if (!type.equals("user") && !type.equals("assistant") && !type.equals("system")
        || o.path("isSidechain").asBoolean(false)) {
      return true;
    }
    if (type.equals("system")) {
      String sub = o.path("subtype").asText("");
      if (sub.equals("turn_duration") || sub.equals("stop_hook_summary")) {
        out.accept(new TurnSignal.TurnEnded(false));
      }
      return true;
    }
    JsonNode msg = o.path("message");
    JsonNode content = msg.path("content");
    if (type.equals("user")) {
      boolean toolResult = false;
      if (content.isArray()) {
        for (JsonNode b : content) {
          if ("tool_result".equals(b.path("type").asText())) {
            toolResult = true;
            out.accept(new TurnSignal.ToolAnswered(b.path("tool_use_id").asText()));
          }
        }
      }
      if (!toolResult && !o.path("isMeta").asBoolean(false) && !isCommandEcho(content)) {
        out.accept(new TurnSignal.Prompted());
      }
      return true;
    }
    boolean text = false;
    if (content.isArray()) {
      for (JsonNode b : content) {
        String bt = b.path("type").asText();
        if ("tool_use".equals(bt)) {
          String name = b.path("name").asText("");
          String question = QUESTION_TOOLS.contains(name) ? questionText(name, b.path("input")) : null;
          out.accept(new TurnSignal.ToolCalled(b.path("id").asText(), name, question));
        } else if ("text".equals(bt)) {
          text = true;
        }
      }
    }
    String stop = msg.path("stop_reason").asText("");
    if (stop.equals("end_turn") || stop.equals("stop_sequence")) {
      out.accept(new TurnSignal.TurnEnded(false));
    } else if (stop.equals("tool_use")) {
      out.accept(new TurnSignal.Working());
    } else {
      // Older Claude versions write a null stop reason on every line and no turn_duration: text
      // alone must not count as mid-turn (it would clear every real question they ask).
      out.accept(new TurnSignal.Replied(text));
    }
    return true;
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
