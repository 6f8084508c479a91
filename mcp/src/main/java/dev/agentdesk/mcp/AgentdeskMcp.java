package dev.agentdesk.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * agentdesk's MCP server over the official MCP Java SDK: the history, terminal, agent and sandbox
 * tools, the session and screen resources, and the intent/suggest instructions, on any transport
 * the SDK offers (stdio for {@code agentdesk mcp}, Streamable HTTP at {@code /mcp} on serve).
 *
 * <pre>{@code
 * McpSyncServer server = AgentdeskMcp.start(new StdioServerTransportProvider(AgentdeskMcp.jsonMapper()),
 *     ports, new McpOptions(version, false, "start it with --allow-control", ""));
 * }</pre>
 */
public final class AgentdeskMcp {
  /** The server's name in the initialize answer. */
  public static final String SERVER_NAME = "agentdesk";

  private AgentdeskMcp() {}

  /** The JSON mapper every transport of this server should use (Jackson 2, like the rest of agentdesk). */
  public static McpJsonMapper jsonMapper() {
    return new JacksonMcpJsonMapper(WireErrors.mapper(Jsons.MAPPER));
  }

  /** A server for one client on a single-session transport (stdio). */
  public static McpSyncServer start(McpServerTransportProvider transport, McpPorts ports, McpOptions options) {
    Parts p = parts(ports, options, "stdio");
    return configure(McpServer.sync(transport), p, options).build();
  }

  /** A server for many clients on a Streamable HTTP transport. */
  public static McpSyncServer start(McpStreamableServerTransportProvider transport, McpPorts ports,
      McpOptions options) {
    Parts p = parts(ports, options, "http");
    // A call runs on the request's own thread: no hop to a scheduler per call.
    return configure(McpServer.sync(transport), p, options).immediateExecution(true).build();
  }

  /** Every tool's name, in the order tools/list gives them. */
  public static List<String> toolNames() {
    return TOOL_NAMES;
  }

  /** The names of the tools that type, start or run something (refused unless control is allowed). */
  public static List<String> controlToolNames() {
    return CONTROL_TOOL_NAMES;
  }

  /** The instructions the initialize answer carries: the intent and suggest declarations, then the notice. */
  public static String instructions(McpOptions options) {
    String base = declarations();
    return options.notice().isBlank() ? base : base + "\n" + options.notice().strip() + "\n";
  }

  /** The intent/suggest declaration text of the output-parser spec, as agents should follow it. */
  public static String declarations() {
    try (InputStream in = AgentdeskMcp.class.getResourceAsStream("instructions.md")) {
      if (in == null) {
        throw new IllegalStateException("instructions.md is missing from the agentdesk-mcp jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private record Parts(List<ToolDef> tools, HistoryTools history, TerminalsPort terminals, ToolRunner runner) {}

  private static final List<String> TOOL_NAMES;
  private static final List<String> CONTROL_TOOL_NAMES;

  static {
    List<ToolDef> defs = definitions(new HistoryTools(null), new LiveTools(null, null, null));
    TOOL_NAMES = defs.stream().map(ToolDef::name).toList();
    CONTROL_TOOL_NAMES = defs.stream().filter(ToolDef::control).map(ToolDef::name).toList();
  }

  private static List<ToolDef> definitions(HistoryTools history, LiveTools live) {
    List<ToolDef> all = new ArrayList<>(history.tools());
    all.addAll(live.tools());
    return List.copyOf(all);
  }

  private static Parts parts(McpPorts ports, McpOptions options, String transport) {
    HistoryTools history = new HistoryTools(ports.history());
    List<ToolDef> tools = definitions(history, new LiveTools(ports.terminals(), ports.agents(), ports.sandboxes()));
    return new Parts(tools, history, ports.terminals(), new ToolRunner(options, transport));
  }

  private static <S extends McpServer.SyncSpecification<S>> McpServer.SyncSpecification<S> configure(
      McpServer.SyncSpecification<S> spec, Parts p, McpOptions options) {
    return spec
        .serverInfo(SERVER_NAME, options.version())
        .instructions(instructions(options))
        .jsonMapper(jsonMapper())
        .jsonSchemaValidator(new DefaultJsonSchemaValidator(Jsons.MAPPER))
        // The tools check their own arguments so that a bad one is a tool error naming it (ADR 0019).
        .validateToolInputs(false)
        .capabilities(McpSchema.ServerCapabilities.builder().tools(false).resources(false, false).build())
        .tools(p.tools().stream().map(p.runner()::spec).toList())
        .resourceTemplates(Resources.templates(p.history(), p.terminals()));
  }
}
