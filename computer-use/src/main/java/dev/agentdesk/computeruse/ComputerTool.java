package dev.agentdesk.computeruse;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A vendor's computer-use tool, carried out on an ACI runtime through the client SDK. One instance
 * belongs to one agent loop (it remembers the pointer and the last screenshot's coordinate space);
 * it is not thread-safe.
 */
public sealed interface ComputerTool permits AnthropicComputerTool, OpenAiComputerTool {
  /**
   * Runs one tool call (the vendor's call block, or just its input/action object) and returns the
   * result in the vendor's shape. Bad calls come back as an error result; a session failure (the
   * runtime gone, a timeout) is thrown as the SDK's {@code AciClientException}.
   */
  ToolResult call(JsonNode call);

  /** The display size the tool was declared with. */
  DisplaySize display();
}
