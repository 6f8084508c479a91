package dev.agentdesk.mcp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;

/**
 * One tool as this server offers it: its name, schemas, whether it controls something (types,
 * starts or runs; refused unless control is allowed) and its handler.
 */
record ToolDef(String name, String title, String description, Map<String, Object> input,
    Map<String, Object> output, boolean control, Handler handler) {

  /** Runs a call whose arguments are already known to name only this tool's parameters. */
  @FunctionalInterface
  interface Handler {
    Outcome call(Args args);
  }

  /**
   * What a call gives back: the structured result (it matches the output schema) and content
   * beyond its JSON text, such as a screenshot's image.
   */
  record Outcome(ObjectNode structured, List<McpSchema.Content> extra) {
    Outcome {
      extra = List.copyOf(extra);
    }

    static Outcome of(ObjectNode structured) {
      return new Outcome(structured, List.of());
    }
  }

  static ToolDef read(String name, String title, String description, Map<String, Object> input,
      Map<String, Object> output, Handler handler) {
    return new ToolDef(name, title, description, input, output, false, handler);
  }

  static ToolDef control(String name, String title, String description, Map<String, Object> input,
      Map<String, Object> output, Handler handler) {
    return new ToolDef(name, title, description, input, output, true, handler);
  }
}
