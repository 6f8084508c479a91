package dev.agentdesk.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A temporary home for the real OpenCode CLI (pinned in agents/real-agents.versions, see
 * {@link RealAgents}), pointed at a scripted model server ({@code dev.agentdesk.testkit.model}) and
 * kept offline. Its configuration ({@code OPENCODE_CONFIG}) declares one provider,
 * {@value #PROVIDER}, on the {@code @ai-sdk/openai-compatible} SDK that 1.18.33 carries inside its
 * binary (nothing is installed at start), whose {@code baseURL} is the server's {@code /v1} and
 * whose one model {@value #MODEL} has a context limit and a price, so OpenCode needs no catalogue
 * (models.dev) and prices its own messages. {@code OPENCODE_DISABLE_MODELS_FETCH},
 * {@code OPENCODE_DISABLE_AUTOUPDATE}, {@code OPENCODE_DISABLE_LSP_DOWNLOAD} and
 * {@code OPENCODE_DISABLE_SHARE} keep it from the network but for one look-up: at start 1.18.33 asks
 * the npm registry for {@code @opencode-ai/plugin} (the plugin SDK it puts beside a user's plugins),
 * so {@code NPM_CONFIG_REGISTRY}/{@code BUN_CONFIG_REGISTRY} name {@value #REGISTRY} on the model
 * server, which answers 404 and records it, and OpenCode goes on. {@code HOME} and the XDG folders
 * put its database ({@code $XDG_DATA_HOME/opencode/opencode.db}), log and cache here.
 */
public final class OpenCodeHome {
  /** The provider id in {@code opencode.json}. */
  public static final String PROVIDER = "scripted";
  /** The model id the server is asked for, unless another is given. */
  public static final String MODEL = "gpt-scripted";
  /** A key that only the scripted server ever sees. */
  public static final String KEY = "sk-scripted-opencode-0123456789";
  /** Dollars per million tokens in the configuration: input, output, cache read. */
  public static final double PRICE_INPUT = 2, PRICE_OUTPUT = 8, PRICE_CACHE_READ = 0.5;

  /** The path on the model server that stands for the npm registry (a 404 there, recorded). */
  public static final String REGISTRY = "/npm-registry/";

  private final RealAgents.Pin pin;
  private final Path home;
  private final String baseUrl;

  /**
   * A home in {@code home} (created) for the server at {@code baseUrl}; with {@code askBash} the
   * shell tool asks first ({@code permission.bash: "ask"}; 1.18.33 runs commands without asking).
   *
   * @throws AssertionError when the pinned CLI is not installed ({@link RealAgents#require})
   */
  public OpenCodeHome(Path home, String baseUrl, boolean askBash) throws IOException {
    this(home, baseUrl, askBash, MODEL);
  }

  /**
   * As {@link #OpenCodeHome(Path, String, boolean)} with the model id {@code model} (one agentdesk's
   * price table knows, such as {@code gpt-4o}, for a test of agentdesk's own cost).
   */
  public OpenCodeHome(Path home, String baseUrl, boolean askBash, String model) throws IOException {
    this.pin = RealAgents.require("opencode");
    this.home = Files.createDirectories(home);
    this.baseUrl = baseUrl;
    Files.writeString(config(), "{\n"
        + "  \"$schema\": \"https://opencode.ai/config.json\",\n"
        + "  \"model\": \"" + PROVIDER + "/" + model + "\",\n"
        + "  \"small_model\": \"" + PROVIDER + "/" + model + "\",\n"
        + "  \"autoupdate\": false,\n"
        + "  \"share\": \"disabled\",\n"
        + (askBash ? "  \"permission\": {\"bash\": \"ask\"},\n" : "")
        + "  \"provider\": {\"" + PROVIDER + "\": {\n"
        + "    \"npm\": \"@ai-sdk/openai-compatible\", \"name\": \"Scripted\",\n"
        + "    \"options\": {\"baseURL\": \"" + baseUrl + "/v1\", \"apiKey\": \"" + KEY + "\"},\n"
        + "    \"models\": {\"" + model + "\": {\"name\": \"GPT Scripted\", \"limit\": {\"context\": 128000, \"output\": 8192},\n"
        + "      \"cost\": {\"input\": " + PRICE_INPUT + ", \"output\": " + PRICE_OUTPUT + ", \"cache_read\": "
        + PRICE_CACHE_READ + "}}}\n"
        + "  }}\n"
        + "}\n");
  }

  /** The pinned CLI. */
  public RealAgents.Pin pin() {
    return pin;
  }

  /** {@code HOME}. */
  public Path home() {
    return home;
  }

  /** {@code OPENCODE_CONFIG}. */
  public Path config() {
    return home.resolve("opencode.json");
  }

  /** {@code $XDG_DATA_HOME/opencode}: {@code opencode.db} and {@code log/}. */
  public Path dataDir() {
    return home.resolve(".local/share/opencode");
  }

  /** The environment agents get: PATH with the pinned CLI first, the home and XDG folders, the configuration. */
  public Map<String, String> env() {
    Map<String, String> env = new HashMap<>();
    env.put("PATH", pin.executable().getParent() + ":/usr/bin:/bin");
    env.put("HOME", home.toString());
    env.put("XDG_CONFIG_HOME", home.resolve(".config").toString());
    env.put("XDG_DATA_HOME", home.resolve(".local/share").toString());
    env.put("XDG_CACHE_HOME", home.resolve(".cache").toString());
    env.put("XDG_STATE_HOME", home.resolve(".local/state").toString());
    env.put("OPENCODE_CONFIG", config().toString());
    env.put("OPENCODE_DISABLE_MODELS_FETCH", "1");
    env.put("OPENCODE_DISABLE_AUTOUPDATE", "1");
    env.put("OPENCODE_DISABLE_LSP_DOWNLOAD", "1");
    env.put("OPENCODE_DISABLE_SHARE", "1");
    env.put("NPM_CONFIG_REGISTRY", baseUrl + REGISTRY);
    env.put("BUN_CONFIG_REGISTRY", baseUrl + REGISTRY);
    env.put("TERM", "xterm-256color");
    return env;
  }
}
