package dev.agentdesk.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A temporary home for the real Codex CLI (pinned in agents/real-agents.versions, see
 * {@link RealAgents}), pointed at a scripted model server ({@code dev.agentdesk.testkit.model}).
 * {@code CODEX_HOME} holds a {@code config.toml} whose custom {@code model_provider} speaks the
 * Responses API ({@code wire_api = "responses"}) to the server with a key from
 * {@code SCRIPTED_API_KEY}; no update check ({@code check_for_update_on_startup}), no analytics;
 * one stream retry and none for a refused request, so a failing step ends the turn in about a
 * second instead of five backed-off reconnects. A folder listed as trusted
 * ({@code [projects."<path>"] trust_level = "trusted"}) skips the "Trust this folder?" screen.
 */
public final class CodexHome {
  /** A key that only the scripted server ever sees. */
  public static final String KEY = "sk-scripted-codex-0123456789";
  /** The model the configuration names (the server answers any). */
  public static final String MODEL = "gpt-scripted";

  private final RealAgents.Pin pin;
  private final Path home;
  private final Path codexHome;

  /**
   * A home in {@code home} (created), {@code CODEX_HOME} in it.
   *
   * @throws AssertionError when the pinned CLI is not installed ({@link RealAgents#require})
   */
  public CodexHome(Path home) throws IOException {
    this.pin = RealAgents.require("codex");
    this.home = Files.createDirectories(home);
    this.codexHome = Files.createDirectories(home.resolve(".codex"));
  }

  /** Writes {@code config.toml} for the server at {@code baseUrl}, with the {@code trusted} folders. */
  public CodexHome configured(String baseUrl, List<Path> trusted) throws IOException {
    return configured(baseUrl, MODEL, trusted);
  }

  /** As {@link #configured(String, List)} with another model name (a priced one, for cost). */
  public CodexHome configured(String baseUrl, String model, List<Path> trusted) throws IOException {
    StringBuilder toml = new StringBuilder()
        .append("model = \"").append(model).append("\"\n")
        .append("model_provider = \"scripted\"\n")
        .append("check_for_update_on_startup = false\n\n")
        .append("[model_providers.scripted]\n")
        .append("name = \"Scripted\"\n")
        .append("base_url = \"").append(baseUrl).append("/v1\"\n")
        .append("wire_api = \"responses\"\n")
        .append("env_key = \"SCRIPTED_API_KEY\"\n")
        .append("stream_max_retries = 1\n")
        .append("request_max_retries = 0\n\n")
        .append("[analytics]\nenabled = false\n\n")
        .append("[tui]\nscreen_reader_detection_done = true\n");
    for (Path p : trusted) {
      toml.append("\n[projects.\"").append(p.toAbsolutePath()).append("\"]\ntrust_level = \"trusted\"\n");
    }
    Files.writeString(codexHome.resolve("config.toml"), toml);
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

  /** {@code CODEX_HOME}: {@code config.toml}, and the {@code sessions/} folder Codex writes its transcripts into. */
  public Path codexHome() {
    return codexHome;
  }

  /** The environment agents get: PATH with the pinned CLI first, the homes, the key. */
  public Map<String, String> env() {
    Map<String, String> env = new HashMap<>();
    env.put("PATH", pin.executable().getParent() + ":/usr/local/bin:/usr/bin:/bin");
    env.put("HOME", home.toString());
    env.put("CODEX_HOME", codexHome.toString());
    env.put("SCRIPTED_API_KEY", KEY);
    env.put("TERM", "xterm-256color");
    return env;
  }
}
