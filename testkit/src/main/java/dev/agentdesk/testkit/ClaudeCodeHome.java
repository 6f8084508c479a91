package dev.agentdesk.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A temporary home for the real Claude Code CLI (pinned in agents/real-agents.versions, see
 * {@link RealAgents}), pointed at a scripted model server ({@code dev.agentdesk.testkit.model}). Its documented knobs keep it offline and quiet:
 * {@code ANTHROPIC_BASE_URL} and {@code ANTHROPIC_API_KEY}; {@code DISABLE_AUTOUPDATER} and
 * {@code CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC} (no update check, telemetry or error reports);
 * {@code CLAUDE_CONFIG_DIR} for its settings and projects. In {@code .claude.json} the key's last
 * 20 characters in {@code customApiKeyResponses.approved} stand for a user who accepted the key
 * (without that, 2.1.328 runs a connectivity check against api.anthropic.com first and exits);
 * {@code hasCompletedOnboarding} skips the theme picker and security notes;
 * {@code hasSeenAutoDefaultNotice}/{@code hasSeenAutoDefaultNudge} the notice and the offer to make
 * auto mode the default (a dialog after the first turn otherwise); a project's
 * {@code hasTrustDialogAccepted} skips the trust dialog for that folder.
 */
public final class ClaudeCodeHome {
  /** A key that only the scripted server ever sees. */
  public static final String KEY = "sk-ant-api03-scripted-0123456789abcdefghij";

  private final RealAgents.Pin pin;
  private final Path home;
  private final Path configDir;
  /** What {@code .claude.json} holds beside the key: the onboarding and trust state, the MCP servers. */
  private String state = "";
  private String mcpServers = "";

  /**
   * A home in {@code home} (created) with {@code settings.json} for permission prompts as a new user
   * sees them.
   *
   * @throws AssertionError when the pinned CLI is not installed ({@link RealAgents#require})
   */
  public ClaudeCodeHome(Path home) throws IOException {
    this.pin = RealAgents.require("claude");
    this.home = Files.createDirectories(home);
    this.configDir = Files.createDirectories(home.resolve(".claude"));
    // Permission prompts as a new user sees them (2.1.328 defaults to auto mode, which decides itself).
    Files.writeString(configDir.resolve("settings.json"), "{\"permissions\":{\"defaultMode\":\"default\"}}\n");
  }

  /** Configuration of a user who went through onboarding and trusted {@code trusted} folders. */
  public ClaudeCodeHome onboarded(List<Path> trusted) throws IOException {
    String projects = trusted.stream().map(p -> "\"" + p.toAbsolutePath() + "\":{\"hasTrustDialogAccepted\":true}")
        .collect(Collectors.joining(","));
    write("\"hasCompletedOnboarding\":true,\"lastOnboardingVersion\":\"" + pin.version()
        + "\",\"theme\":\"dark\",\"hasSeenAutoDefaultNotice\":true,\"hasSeenAutoDefaultNudge\":true,\"projects\":{" + projects + "}");
    return this;
  }

  /** Configuration of a new user who only accepted the key: onboarding and trust dialogs follow. */
  public ClaudeCodeHome firstRun() throws IOException {
    write("");
    return this;
  }

  /**
   * Registers a Streamable HTTP MCP server at user scope ({@code mcpServers} in {@code .claude.json},
   * as {@code claude mcp add --transport http} writes it), sent {@code Authorization: Bearer token}.
   * 2.1.328 defers MCP tools behind its tool search unless {@code ENABLE_TOOL_SEARCH=false} is set.
   */
  public ClaudeCodeHome withHttpMcpServer(String name, String url, String token) throws IOException {
    mcpServers = "\"mcpServers\":{\"" + name + "\":{\"type\":\"http\",\"url\":\"" + url
        + "\",\"headers\":{\"Authorization\":\"Bearer " + token + "\"}}}";
    write(state);
    return this;
  }

  /** The pinned CLI. */
  public RealAgents.Pin pin() {
    return pin;
  }

  /** {@code HOME}. */
  public Path home() {
    return home;
  }

  /** {@code CLAUDE_CONFIG_DIR}: {@code .claude.json}, {@code settings.json}, {@code projects/}. */
  public Path configDir() {
    return configDir;
  }

  private void write(String more) throws IOException {
    state = more;
    String approved = KEY.substring(KEY.length() - 20);
    Files.writeString(configDir.resolve(".claude.json"), "{\"customApiKeyResponses\":{\"approved\":[\"" + approved
        + "\"],\"rejected\":[]}" + (more.isEmpty() ? "" : "," + more) + (mcpServers.isEmpty() ? "" : "," + mcpServers)
        + "}\n");
  }

  /** The environment agents get: PATH with the pinned CLI first, the home, the server. */
  public Map<String, String> env(String baseUrl) {
    Map<String, String> env = new HashMap<>();
    env.put("PATH", pin.executable().getParent() + ":/usr/bin:/bin");
    env.put("HOME", home.toString());
    env.put("CLAUDE_CONFIG_DIR", configDir.toString());
    env.put("ANTHROPIC_BASE_URL", baseUrl);
    env.put("ANTHROPIC_API_KEY", KEY);
    env.put("DISABLE_AUTOUPDATER", "1");
    env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
    env.put("TERM", "xterm-256color");
    env.put("CODEX_HOME", "");
    return env;
  }
}
