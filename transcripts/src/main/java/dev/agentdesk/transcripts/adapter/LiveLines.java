package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.transcripts.TurnSignals;
import java.io.IOException;

/** Shared by the adapters' live turn-signal readers. */
final class LiveLines {
  private LiveLines() {}

  /** The line as a JSON object, or null when it is not one. */
  static JsonNode object(String line) {
    try {
      JsonNode o = JsonlScan.MAPPER.readTree(line);
      return o != null && o.isObject() ? o : null;
    } catch (IOException e) {
      return null;
    }
  }

  /** Counts JSON lines as entries and signals nothing. */
  static TurnSignals silent() {
    return (line, out) -> object(line) != null;
  }
}
