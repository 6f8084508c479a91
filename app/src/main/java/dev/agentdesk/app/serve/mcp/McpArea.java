package dev.agentdesk.app.serve.mcp;

import dev.agentdesk.app.AppVersion;
import dev.agentdesk.app.serve.ServeConfig;
import dev.agentdesk.app.serve.ServletArea;
import dev.agentdesk.app.serve.agents.AgentsArea;
import dev.agentdesk.app.serve.history.HistoryArea;
import dev.agentdesk.app.serve.sandboxes.SandboxesArea;
import dev.agentdesk.app.serve.terminals.TerminalsArea;
import dev.agentdesk.mcp.AgentdeskMcp;
import dev.agentdesk.mcp.HistoryAccess;
import dev.agentdesk.mcp.McpOptions;
import dev.agentdesk.mcp.McpPorts;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import jakarta.servlet.http.HttpServlet;
import java.time.Duration;

/**
 * The MCP endpoint of serve: Streamable HTTP at {@code /mcp} (the SDK's servlet), behind the
 * server's token, with the tools over this server's own history reader and areas (ADR 0019).
 */
public final class McpArea implements ServletArea {
  public static final String PATH = "/mcp";

  private final HistoryAccess history;
  private final HttpServletStreamableServerTransportProvider transport;
  private final McpSyncServer server;

  public McpArea(ServeConfig config, TerminalsArea terminals, AgentsArea agents, SandboxesArea sandboxes) {
    this.history = HistoryAccess.over(HistoryArea.openDatabase(config));
    this.transport = HttpServletStreamableServerTransportProvider.builder()
        .jsonMapper(AgentdeskMcp.jsonMapper())
        .mcpEndpoint(PATH)
        .keepAliveInterval(Duration.ofSeconds(30))
        .build();
    McpPorts ports = new McpPorts(history, InProcessPorts.terminals(terminals), InProcessPorts.agents(agents),
        InProcessPorts.sandboxes(sandboxes));
    McpOptions options = new McpOptions(AppVersion.current(), config.mcpAllowControl(),
        "start 'agentdesk serve' with --mcp-allow-control to allow it", "");
    this.server = AgentdeskMcp.start(transport, ports, options);
  }

  @Override
  public String servletPath() {
    return PATH;
  }

  @Override
  public HttpServlet servlet() {
    return new McpHttpShield(transport);
  }

  @Override
  public void close() {
    try {
      server.closeGracefully();
    } finally {
      history.close();
    }
  }
}
