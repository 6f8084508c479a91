package dev.agentdesk.app.mcpinstall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.testkit.RealAgents;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mcp install --client opencode} checked by the real OpenCode (pinned in
 * agents/real-agents.versions; {@link RealAgents#require} fails naming scripts/setup-agents when it
 * is missing) on a temporary HOME and XDG folders: afterwards {@code opencode mcp list} lists
 * agentdesk and starts our exact argv (here a stand-in for agentdesk that records its arguments and
 * exits, which OpenCode then reports as failed), a second install changes nothing, and after
 * {@code --remove} the list is empty and nothing is started.
 */
class OpenCodeCliInstallTest {
  @TempDir Path tmp;

  @Test
  void opencodeMcpListShowsAgentdeskAfterInstallAndNotAfterRemove() throws Exception {
    RealAgents.Pin opencode = RealAgents.require("opencode");
    Path home = Files.createDirectories(tmp.resolve("home"));
    Path ran = tmp.resolve("ran.txt");
    Path agentdesk = tmp.resolve("opt/agentdesk/bin/agentdesk");
    Files.createDirectories(agentdesk.getParent());
    Files.writeString(agentdesk, "#!/bin/sh\necho \"$@\" >> " + ran + "\n");
    agentdesk.toFile().setExecutable(true);
    Map<String, String> env = Map.of("HOME", home.toString(), "PATH", "/usr/bin:/bin",
        "XDG_CONFIG_HOME", home.resolve(".config").toString(), "XDG_DATA_HOME", home.resolve(".local/share").toString(),
        "XDG_CACHE_HOME", home.resolve(".cache").toString(), "XDG_STATE_HOME", home.resolve(".local/state").toString(),
        "OPENCODE_DISABLE_AUTOUPDATE", "1", "OPENCODE_DISABLE_MODELS_FETCH", "1",
        // 1.18.33 looks up its plugin SDK on the npm registry at start: a closed loopback port, so nothing leaves
        "NPM_CONFIG_REGISTRY", "http://127.0.0.1:9/", "BUN_CONFIG_REGISTRY", "http://127.0.0.1:9/");
    Path config = home.resolve(".config/opencode/opencode.json");

    assertThat(install(env, agentdesk)).contains("opencode: added " + config);
    String listed = opencode(opencode.executable(), env, "mcp", "list");
    assertThat(listed).contains("agentdesk").contains(agentdesk + " mcp").contains("1 server(s)");
    assertThat(ran).content().isEqualToIgnoringNewLines("mcp");
    String file = Files.readString(config);

    assertThat(install(env, agentdesk)).contains("nothing changed");
    assertThat(Files.readString(config)).isEqualTo(file);

    assertThat(install(env, agentdesk, "--remove")).contains("opencode: removed mcp.agentdesk");
    Files.delete(ran);
    assertThat(opencode(opencode.executable(), env, "mcp", "list")).doesNotContain("agentdesk");
    assertThat(ran).doesNotExist();
    assertThat(Files.readString(config)).doesNotContain("\"agentdesk\"");
  }

  private static String install(Map<String, String> env, Path agentdesk, String... more) {
    return CliInstalls.install("opencode", env, agentdesk, more);
  }

  private String opencode(Path executable, Map<String, String> env, String... args) throws Exception {
    // the listing is coloured; the rows are what counts
    return CliInstalls.run(executable, env, tmp, args).out().replaceAll("\u001b\\[[0-9;]*m", "");
  }
}
