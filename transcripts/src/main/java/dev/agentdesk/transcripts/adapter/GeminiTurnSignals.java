package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.transcripts.TurnSignal;
import dev.agentdesk.transcripts.TurnSignals;
import java.util.function.Consumer;

/**
 * Gemini CLI's turn, live, from the 0.40+ JSONL log: a {@code user} message is a prompt; a
 * {@code gemini} message's {@code toolCalls} are open while their status is on its way and answered
 * once it is final (a message is appended again in full when its calls move on, so the same call
 * is seen open and then answered); a call {@code awaiting_approval} asks the user. Gemini writes no
 * end of turn: its reply leaves the turn open to the terminal's reading, except the
 * {@code Request cancelled.} note written when the user presses Esc. The metadata line,
 * {@code $set} and {@code $rewindTo} lines say nothing about the turn. Older releases' one-JSON
 * chats are rewritten whole, not appended line by line: no live signal (docs/session-detail.md).
 */
final class GeminiTurnSignals implements TurnSignals {
  @Override
  public boolean read(String line, Consumer<TurnSignal> out) {
    JsonNode m = LiveLines.object(line);
    if (m == null) {
      return false;
    }
    String type = m.path("type").asText("");
    switch (type) {
      case "user" -> out.accept(new TurnSignal.Prompted());
      case "gemini", "model" -> {
        int block = 0;
        for (JsonNode c : m.path("toolCalls")) {
          block++;
          String id = c.path("id").asText(m.path("id").asText("") + "#" + block);
          String status = c.path("status").isTextual() ? c.path("status").asText() : null;
          boolean hasResult = !c.path("result").isMissingNode() && !c.path("result").isNull()
              || c.path("resultDisplay").isTextual();
          if (GeminiMessages.callFinished(status, hasResult)) {
            out.accept(new TurnSignal.ToolAnswered(id));
          } else {
            String name = c.path("name").asText("");
            out.accept(new TurnSignal.ToolCalled(id, name,
                "awaiting_approval".equals(status) ? "Allow " + name + "?" : null));
          }
        }
        String text = GeminiMessages.text(m);
        out.accept(new TurnSignal.Replied(text != null && !text.isBlank()));
      }
      case "info" -> {
        String text = GeminiMessages.text(m);
        if (text != null && text.strip().equals(GeminiMessages.CANCELLED)) {
          out.accept(new TurnSignal.TurnEnded(true));
        }
      }
      default -> { }
    }
    return true;
  }
}
