package dev.agentdesk.app.mcpinstall;

import java.nio.file.Path;

/**
 * What {@code mcp install} did for one client.
 *
 * @param client the agent ({@code claude}, {@code codex}, …)
 * @param file the configuration file
 * @param key where in it ({@code mcpServers.agentdesk}, {@code [mcp_servers.agentdesk]})
 * @param action {@code added}, {@code updated}, {@code removed} or {@code unchanged}
 * @param via {@code file} (edited by agentdesk) or the agent CLI command that made the change
 */
record Change(String client, Path file, String key, String action, String via) {
  boolean changed() {
    return !action.equals("unchanged");
  }

  String line() {
    String where = file + " (" + key + ")";
    return switch (action) {
      case "unchanged" -> client + ": " + where + " already as wanted; nothing changed";
      case "removed" -> client + ": removed " + key + " from " + file + (via.equals("file") ? "" : " with '" + via + "'");
      default -> client + ": " + action + " " + where + (via.equals("file") ? "" : " with '" + via + "'");
    };
  }
}
