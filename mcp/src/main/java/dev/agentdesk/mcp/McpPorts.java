package dev.agentdesk.mcp;

import java.util.Objects;

/**
 * What the tools work on: the history database, and the live parts of a server (in
 * {@code serve}, its own objects; in {@code agentdesk mcp}, a running serve over REST).
 */
public record McpPorts(HistoryAccess history, TerminalsPort terminals, AgentsPort agents, SandboxesPort sandboxes) {
  public McpPorts {
    Objects.requireNonNull(history, "history");
    Objects.requireNonNull(terminals, "terminals");
    Objects.requireNonNull(agents, "agents");
    Objects.requireNonNull(sandboxes, "sandboxes");
  }
}
