package dev.agentdesk.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The terminals of a running {@code agentdesk serve}. Answers are the JSON the REST API gives for
 * the same call ({@code /api/terminals…}, see openapi.json), so the in-process and the remote
 * implementation cannot drift apart; each throws {@link PortException} when it cannot answer.
 */
public interface TerminalsPort {
  /** {@code GET /api/terminals}: an array of Terminal objects. */
  JsonNode list();

  /** {@code GET /api/terminals/{id}}: one Terminal. */
  JsonNode get(String id);

  /** {@code GET /api/terminals/{id}/snapshot}: lines, cursor, log and the recent parsed events. */
  JsonNode snapshot(String id);

  /** Types {@code text} into the terminal as it is. */
  void sendText(String id, String text);

  /** Presses one named key ({@code enter}, {@code ctrl+c}, …). */
  void sendKey(String id, String key);

  /** Starts a program in a new terminal; answers the new Terminal. */
  JsonNode start(List<String> argv, String cwd, String agent);
}
