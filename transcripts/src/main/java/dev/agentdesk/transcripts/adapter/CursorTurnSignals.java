package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.transcripts.TurnSignal;
import dev.agentdesk.transcripts.TurnSignals;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Consumer;

/**
 * Cursor agent's turn, live: a {@code user} line with text is a prompt, {@code tool_use} blocks
 * open calls that {@code tool_result} blocks close, and the {@code turn_ended} marker ends the turn
 * whatever its status. The transcript has no call ids on most calls: a call gets its block's
 * position as id and an id-less result answers the oldest open call, as the history adapter reads them.
 */
final class CursorTurnSignals implements TurnSignals {
  private final Deque<String> open = new ArrayDeque<>();
  private long lines;

  @Override
  public boolean read(String line, Consumer<TurnSignal> out) {
    JsonNode o = LiveLines.object(line);
    if (o == null) {
      return false;
    }
    lines++;
    String role = o.path("role").asText("");
    if (role.isEmpty()) {
      if ("turn_ended".equals(o.path("type").asText())) {
        open.clear();
        out.accept(new TurnSignal.TurnEnded(true));
      }
      return true;
    }
    JsonNode content = o.path("message").path("content");
    boolean text = content.isTextual() && !content.asText().isBlank();
    boolean results = false;
    int block = 0;
    for (JsonNode b : content.isArray() ? content : JsonlScan.MAPPER.createArrayNode()) {
      block++;
      switch (b.path("type").asText("")) {
        case "text" -> text |= !b.path("text").asText("").isBlank();
        case "tool_use", "tool_call" -> {
          String id = b.path("id").asText("L" + lines + "#" + block);
          open.addLast(id);
          out.accept(new TurnSignal.ToolCalled(id, b.path("name").asText(""), null));
        }
        case "tool_result", "tool-result" -> {
          results = true;
          String id = b.path("tool_use_id").asText("");
          if (id.isEmpty()) {
            id = open.isEmpty() ? "" : open.peekFirst();
          }
          open.remove(id);
          out.accept(new TurnSignal.ToolAnswered(id));
        }
        default -> { }
      }
    }
    if (role.equals("user")) {
      if (!results && text) {
        open.clear();
        out.accept(new TurnSignal.Prompted());
      }
    } else if (role.equals("assistant")) {
      out.accept(new TurnSignal.Replied(text));
    }
    return true;
  }
}
