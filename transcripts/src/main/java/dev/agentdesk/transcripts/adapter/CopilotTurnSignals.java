package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.transcripts.TurnSignal;
import dev.agentdesk.transcripts.TurnSignals;
import java.util.function.Consumer;

/**
 * Copilot CLI's turn, live, from {@code events.jsonl}: {@code user.message} is a prompt;
 * {@code assistant.turn_start} is work (it opens one model request, not the user's turn: a tool
 * loop writes several start/end pairs, so {@code assistant.turn_end} ends nothing);
 * {@code assistant.message} {@code toolRequests} open calls that {@code tool.execution_complete}
 * closes; {@code session.task_complete}, {@code abort} and {@code session.shutdown} end the turn.
 * {@code session.idle}, the SDK's "done", is ephemeral and never written to the file. A
 * subagent's events (they carry {@code parentToolCallId}) say nothing about the main turn.
 */
final class CopilotTurnSignals implements TurnSignals {
  @Override
  public boolean read(String line, Consumer<TurnSignal> out) {
    JsonNode o = LiveLines.object(line);
    if (o == null) {
      return false;
    }
    JsonNode data = o.path("data");
    if (!data.path("parentToolCallId").asText("").isEmpty()) {
      return true;
    }
    switch (o.path("type").asText("")) {
      case "user.message" -> out.accept(new TurnSignal.Prompted());
      case "assistant.turn_start" -> out.accept(new TurnSignal.Working());
      case "assistant.message" -> {
        for (JsonNode r : data.path("toolRequests")) {
          out.accept(new TurnSignal.ToolCalled(r.path("toolCallId").asText(), r.path("name").asText(""), null));
        }
        out.accept(new TurnSignal.Replied(!data.path("content").asText("").isBlank()));
      }
      case "tool.execution_complete" -> out.accept(new TurnSignal.ToolAnswered(data.path("toolCallId").asText()));
      case "session.task_complete", "abort", "session.shutdown" -> out.accept(new TurnSignal.TurnEnded(true));
      default -> { }
    }
    return true;
  }
}
