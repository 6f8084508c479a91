package dev.agentdesk.computeruse;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What one tool call produced: {@code json}, the block to hand back to the vendor's API (Anthropic:
 * a {@code tool_result}, error results included; OpenAI: a {@code computer_call_output}, null when
 * the call failed, since that API has no error shape), and {@code error}, null on success.
 */
public record ToolResult(JsonNode json, String error) {
  public boolean ok() {
    return error == null;
  }
}
