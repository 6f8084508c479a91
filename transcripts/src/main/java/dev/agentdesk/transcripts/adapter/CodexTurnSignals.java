package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.transcripts.TurnSignal;
import dev.agentdesk.transcripts.TurnSignals;
import java.util.function.Consumer;

/**
 * Codex's turn, live: {@code event_msg} {@code user_message} is a prompt, {@code task_started}
 * opens a task that {@code task_complete}/{@code turn_aborted} close (with every call of it);
 * {@code response_item} function, custom-tool and local-shell calls open calls that their
 * {@code *_output} items close. A message inside an open task is mid-turn (Codex closes every task
 * it opens); without task events (older rollouts) it says nothing either way.
 */
final class CodexTurnSignals implements TurnSignals {
  /** A task_started not yet followed by its end. */
  private boolean taskOpen;

  @Override
  public boolean read(String line, Consumer<TurnSignal> out) {
    JsonNode o = LiveLines.object(line);
    if (o == null) {
      return false;
    }
    String type = o.path("type").asText("");
    JsonNode p = o.path("payload");
    String t = p.path("type").asText("");
    if (type.equals("event_msg")) {
      switch (t) {
        case "user_message" -> out.accept(new TurnSignal.Prompted());
        case "task_started" -> {
          taskOpen = true;
          out.accept(new TurnSignal.Working());
        }
        case "task_complete", "turn_aborted", "turn.completed" -> {
          taskOpen = false;
          out.accept(new TurnSignal.TurnEnded(true));
        }
        case "agent_message" -> out.accept(taskOpen ? new TurnSignal.Working() : new TurnSignal.Replied(true));
        default -> { }
      }
    } else if (type.equals("response_item")) {
      switch (t) {
        case "function_call", "custom_tool_call", "local_shell_call" ->
            out.accept(new TurnSignal.ToolCalled(p.path("call_id").asText(), p.path("name").asText(""), null));
        case "function_call_output", "custom_tool_call_output" ->
            out.accept(new TurnSignal.ToolAnswered(p.path("call_id").asText()));
        default -> { }
      }
    }
    return true;
  }
}
