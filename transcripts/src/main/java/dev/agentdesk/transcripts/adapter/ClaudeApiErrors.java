package dev.agentdesk.transcripts.adapter;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The card text of a Claude Code API-error line: an {@code assistant} line with
 * {@code isApiErrorMessage: true}, model {@code <synthetic>}, zero usage, the message Claude Code
 * showed as its text, the error kind in {@code error} ({@code rate_limit}, {@code server_error},
 * {@code authentication_failed}, …) and the HTTP status in {@code apiErrorStatus} when there was one:
 *
 * <pre>{"type":"assistant","isApiErrorMessage":true,"apiErrorStatus":429,"error":"rate_limit",
 *  "message":{"model":"&lt;synthetic&gt;","content":[{"type":"text","text":"You've hit your session limit"}]}}</pre>
 */
final class ClaudeApiErrors {
  private ClaudeApiErrors() {}

  /** What the user saw, with the status when the text does not say it; the error kind when there is no text. */
  static String text(JsonNode line, JsonNode message) {
    String shown = ClaudeBlocks.resultText(message.get("content"), null);
    JsonNode error = line.get("error");
    String kind = error == null ? null : error.isTextual() ? error.asText() : Json.str(error, "message");
    Long status = Json.lngOrNull(line, "apiErrorStatus");
    if (status == null && error != null && error.isObject()) {
      status = Json.lngOrNull(error, "status");
    }
    if (shown == null || shown.isBlank()) {
      shown = "API error" + (kind != null && !kind.isBlank() ? ": " + kind.replace('_', ' ') : "");
    }
    if (status != null && status > 0 && !shown.contains(String.valueOf(status))) {
      shown = shown + " (API error " + status + ")";
    }
    return shown;
  }
}
