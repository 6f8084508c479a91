package dev.agentdesk.app.mcpinstall;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdesk.app.cli.UserError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where and how each agent keeps its MCP servers, as its documentation says (sources in
 * docs/install.md). Each method returns the change it made for an entry named {@code agentdesk} that
 * starts {@code command args…}.
 */
final class Clients {
  static final String NAME = "agentdesk";

  /** The agents {@code mcp install --client} knows. */
  enum Client { claude, codex, gemini, opencode, cursor, copilot }

  private final Map<String, String> env;
  private final Path home;

  Clients(Map<String, String> env, Path home) {
    this.env = env;
    this.home = home;
  }

  /** Claude Code's user configuration: $CLAUDE_CONFIG_DIR/.claude.json, else ~/.claude.json. */
  Path claudeFile() {
    String dir = env.get("CLAUDE_CONFIG_DIR");
    return (dir != null && !dir.isBlank() ? Path.of(dir) : home).resolve(".claude.json");
  }

  Change apply(Client client, List<String> argv, boolean remove) {
    return switch (client) {
      case claude -> json(client, new JsonConfig(claudeFile(), List.of("mcpServers"), NAME),
          stdio(argv, "stdio", false).set("env", JsonConfig.JSON.createObjectNode()), remove);
      case codex -> codex(argv, remove);
      case gemini -> json(client, new JsonConfig(home.resolve(".gemini/settings.json"), List.of("mcpServers"), NAME),
          stdio(argv, null, false), remove);
      case opencode -> json(client, new JsonConfig(opencodeFile(), List.of("mcp"), NAME), opencode(argv), remove);
      case cursor -> json(client, new JsonConfig(home.resolve(".cursor/mcp.json"), List.of("mcpServers"), NAME),
          stdio(argv, null, false), remove);
      case copilot -> json(client, new JsonConfig(copilotFile(), List.of("mcpServers"), NAME),
          stdio(argv, "local", true), remove);
    };
  }

  /** The value Claude Code's own 'claude mcp add --scope user' writes, to tell whether it is there already. */
  JsonNode claudeEntry(List<String> argv) {
    return stdio(argv, "stdio", false).set("env", JsonConfig.JSON.createObjectNode());
  }

  private static Change json(Client client, JsonConfig config, JsonNode value, boolean remove) {
    String action = remove ? config.remove() : config.put(value);
    return new Change(client.name(), config.file(), config.key(), action, "file");
  }

  /** {"type"?: …, "command": argv[0], "args": argv[1…], "tools"?: ["*"]}. */
  private static ObjectNode stdio(List<String> argv, String type, boolean allTools) {
    ObjectNode n = JsonConfig.JSON.createObjectNode();
    if (type != null) {
      n.put("type", type);
    }
    n.put("command", argv.get(0));
    ArrayNode args = n.putArray("args");
    argv.subList(1, argv.size()).forEach(args::add);
    if (allTools) {
      n.putArray("tools").add("*"); // Copilot CLI offers a server's tools only when listed; * is all
    }
    return n;
  }

  /** OpenCode: {"type": "local", "command": [argv…], "enabled": true}. */
  private static ObjectNode opencode(List<String> argv) {
    ObjectNode n = JsonConfig.JSON.createObjectNode();
    n.put("type", "local");
    ArrayNode cmd = n.putArray("command");
    argv.forEach(cmd::add);
    n.put("enabled", true);
    return n;
  }

  /** $COPILOT_HOME/mcp-config.json, else ~/.copilot/mcp-config.json: where Copilot CLI 1.0.102 reads its user servers. */
  private Path copilotFile() {
    String dir = env.get("COPILOT_HOME");
    return (dir != null && !dir.isBlank() && Path.of(dir).isAbsolute() ? Path.of(dir) : home.resolve(".copilot"))
        .resolve("mcp-config.json");
  }

  /** $XDG_CONFIG_HOME/opencode/opencode.json, else ~/.config/opencode/opencode.json; a .jsonc is not rewritten. */
  private Path opencodeFile() {
    String xdg = env.get("XDG_CONFIG_HOME");
    Path dir = (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute() ? Path.of(xdg) : home.resolve(".config"))
        .resolve("opencode");
    Path json = dir.resolve("opencode.json");
    Path jsonc = dir.resolve("opencode.jsonc");
    if (!Files.exists(json) && Files.exists(jsonc)) {
      throw new UserError(jsonc + " has comments this command would lose: add \"" + NAME + "\" under \"mcp\" by hand"
          + " ({\"type\": \"local\", \"command\": [...], \"enabled\": true}), or move your settings to opencode.json");
    }
    return json;
  }

  /** Codex: [mcp_servers.agentdesk] in $CODEX_HOME/config.toml, else ~/.codex/config.toml. */
  private Change codex(List<String> argv, boolean remove) {
    String codexHome = env.get("CODEX_HOME");
    Path file = (codexHome != null && !codexHome.isBlank() ? Path.of(codexHome) : home.resolve(".codex")).resolve("config.toml");
    TomlTable table = new TomlTable(file, "mcp_servers." + NAME);
    List<String> args = new ArrayList<>();
    for (String a : argv.subList(1, argv.size())) {
      args.add(TomlTable.string(a));
    }
    List<String> body = List.of("command = " + TomlTable.string(argv.get(0)), "args = [" + String.join(", ", args) + "]");
    String action = remove ? table.remove() : table.put(body);
    return new Change("codex", file, table.key(), action, "file");
  }
}
