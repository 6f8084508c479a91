package dev.agentdesk.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A temporary home for the real Gemini CLI (pinned in agents/real-agents.versions, see
 * {@link RealAgents}), pointed at a scripted model server ({@code dev.agentdesk.testkit.model},
 * Gemini dialect) by {@code GOOGLE_GEMINI_BASE_URL} with {@code GEMINI_API_KEY}. Its
 * {@code ~/.gemini/settings.json}: {@code security.auth.selectedType: gemini-api-key} (no auth
 * dialog), {@code general.enableAutoUpdate}/{@code enableAutoUpdateNotification} false (no update
 * check), {@code privacy.usageStatisticsEnabled} and {@code telemetry.enabled} false (nothing sent
 * elsewhere), {@code model.name: gemini-2.5-flash} (with the default "auto" model 0.61 first asks a
 * router model to rate each prompt and retries it while the answer is not its JSON), and
 * {@code general.maxAttempts: 2}. Folders are trusted in {@code ~/.gemini/trustedFolders.json};
 * without that, 0.61 asks and restarts itself once trusted.
 */
public final class GeminiCliHome {
  /** A key that only the scripted server ever sees. */
  public static final String KEY = "AIzaSy-scripted-0123456789abcdefghijklm";
  /** The model the settings pick. */
  public static final String MODEL = "gemini-2.5-flash";

  private final RealAgents.Pin pin;
  private final Path home;
  private final Path dir;

  /**
   * A home in {@code home} (created) with the settings above and no trusted folder.
   *
   * @throws AssertionError when the pinned CLI is not installed ({@link RealAgents#require})
   */
  public GeminiCliHome(Path home) throws IOException {
    this.pin = RealAgents.require("gemini");
    this.home = Files.createDirectories(home);
    this.dir = Files.createDirectories(home.resolve(".gemini"));
    Files.writeString(dir.resolve("settings.json"), """
        {
          "security": {"auth": {"selectedType": "gemini-api-key"}},
          "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false, "maxAttempts": 2},
          "privacy": {"usageStatisticsEnabled": false},
          "telemetry": {"enabled": false},
          "model": {"name": "%s"}
        }
        """.formatted(MODEL));
  }

  /** Trusts {@code folders} as the trust dialog's "Trust folder" does. */
  public GeminiCliHome trusted(List<Path> folders) throws IOException {
    Files.writeString(dir.resolve("trustedFolders.json"), folders.stream()
        .map(p -> "\"" + p.toAbsolutePath() + "\": \"TRUST_FOLDER\"").collect(Collectors.joining(", ", "{", "}\n")));
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

  /** {@code ~/.gemini}: settings, trusted folders, {@code tmp/<project>/chats/}. */
  public Path dir() {
    return dir;
  }

  /** The environment agents get: PATH with the pinned CLI first (and node), the home, the server. */
  public Map<String, String> env(String baseUrl) {
    Map<String, String> env = new HashMap<>();
    env.put("PATH", pin.executable().getParent() + ":/usr/local/bin:/usr/bin:/bin");
    env.put("HOME", home.toString());
    env.put("GEMINI_API_KEY", KEY);
    env.put("GOOGLE_GEMINI_BASE_URL", baseUrl);
    env.put("TERM", "xterm-256color");
    return env;
  }
}
