package dev.agentdesk.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a {@link ToolDef} into the SDK's tool specification, and runs every call the same way:
 * control refused unless allowed, arguments checked, the structured result also given as JSON text
 * (for clients that read only content), every failure an {@code isError} result naming its reason,
 * and one log line per call with the client's name.
 */
final class ToolRunner {
  /** Calls are logged under this name ({@code dev.agentdesk.mcp.calls}) so they can be kept apart. */
  static final Logger CALLS = LoggerFactory.getLogger("dev.agentdesk.mcp.calls");
  private static final Logger LOG = LoggerFactory.getLogger(ToolRunner.class);

  private final McpOptions options;
  private final String transport;

  ToolRunner(McpOptions options, String transport) {
    this.options = options;
    this.transport = transport;
  }

  McpServerFeatures.SyncToolSpecification spec(ToolDef def) {
    McpSchema.ToolAnnotations hints = new McpSchema.ToolAnnotations(def.title(), !def.control(), false,
        !def.control(), false, null);
    McpSchema.Tool tool = McpSchema.Tool.builder()
        .name(def.name())
        .title(def.title())
        .description(def.description())
        .inputSchema(def.input())
        .outputSchema(def.output())
        .annotations(hints)
        .build();
    Set<String> known = Schema.keys(def.input());
    return McpServerFeatures.SyncToolSpecification.builder()
        .tool(tool)
        .callHandler((exchange, request) -> call(def, known, exchange, request))
        .build();
  }

  private McpSchema.CallToolResult call(ToolDef def, Set<String> known, McpSyncServerExchange exchange,
      McpSchema.CallToolRequest request) {
    String client = clientName(exchange);
    long started = System.nanoTime();
    try {
      if (def.control() && !options.allowControl()) {
        throw new PortException(PortException.Reason.NOT_ALLOWED, def.name() + " types, starts or runs something,"
            + " and control is not allowed on this MCP server: " + options.howToAllowControl());
      }
      ToolDef.Outcome outcome = def.handler().call(new Args(def.name(), request.arguments(), known));
      JsonNode structured = Jsons.withoutNulls(outcome.structured());
      List<McpSchema.Content> content = new ArrayList<>();
      content.add(new McpSchema.TextContent(structured.toString()));
      content.addAll(outcome.extra());
      log(def, client, started, "ok");
      return McpSchema.CallToolResult.builder()
          .content(content)
          .structuredContent(Jsons.MAPPER.convertValue(structured, Map.class))
          .isError(false)
          .build();
    } catch (PortException e) {
      log(def, client, started, e.reason().code() + ": " + e.getMessage());
      return error(e.reason().code() + ": " + e.getMessage());
    } catch (RuntimeException e) {
      LOG.error("MCP tool {} failed", def.name(), e);
      log(def, client, started, "internal: " + e);
      return error("internal: " + def.name() + " failed unexpectedly (" + e.getClass().getSimpleName()
          + "); the agentdesk log has the details");
    }
  }

  private void log(ToolDef def, String client, long startedNanos, String outcome) {
    long ms = (System.nanoTime() - startedNanos) / 1_000_000;
    CALLS.info("mcp {} call {} by client '{}' -> {} ({} ms)", transport, def.name(), client, outcome, ms);
  }

  static McpSchema.CallToolResult error(String text) {
    return McpSchema.CallToolResult.builder().addTextContent(text).isError(true).build();
  }

  static String clientName(McpSyncServerExchange exchange) {
    McpSchema.Implementation info = exchange == null ? null : exchange.getClientInfo();
    if (info == null || info.name() == null) {
      return "unnamed";
    }
    return info.version() == null ? info.name() : info.name() + " " + info.version();
  }
}
