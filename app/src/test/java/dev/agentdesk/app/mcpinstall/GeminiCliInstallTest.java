package dev.agentdesk.app.mcpinstall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.testkit.RealAgents;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mcp install --client gemini} checked by the real Gemini CLI (pinned in
 * agents/real-agents.versions; missing, the test fails naming scripts/setup-agents) on a temp HOME:
 * afterwards {@code gemini mcp list} lists agentdesk with our command, a second run changes
 * nothing, --remove makes it list no server. Issue #34.
 */
class GeminiCliInstallTest {
  @TempDir Path tmp;

  @Test
  void geminiMcpListShowsAgentdeskAfterInstallAndNotAfterRemove() throws Exception {
    Path gemini = RealAgents.require("gemini").executable();
    Path home = Files.createDirectories(tmp.resolve("home"));
    Path project = Files.createDirectories(tmp.resolve("project"));
    Map<String, String> env = Map.of("HOME", home.toString(), "PATH", "/usr/bin:/bin");
    Path agentdesk = tmp.resolve("opt/agentdesk/bin/agentdesk");

    assertThat(install(env, agentdesk)).contains("gemini: added " + home.resolve(".gemini/settings.json"));
    // 0.61 lists the user's servers in any folder (in an untrusted one as "Disabled", without starting them)
    assertThat(run(gemini, env, project, "mcp", "list")).contains("agentdesk: " + agentdesk + " mcp (stdio)");
    String file = Files.readString(home.resolve(".gemini/settings.json"));

    assertThat(install(env, agentdesk)).contains("nothing changed");
    assertThat(Files.readString(home.resolve(".gemini/settings.json"))).isEqualTo(file);

    assertThat(install(env, agentdesk, "--remove")).contains("gemini: removed mcpServers.agentdesk");
    String after = run(gemini, env, project, "mcp", "list");
    assertThat(after).contains("No MCP servers configured.").doesNotContain("agentdesk");
  }

  private static String install(Map<String, String> env, Path agentdesk, String... more) {
    return CliInstalls.install("gemini", env, agentdesk, more);
  }

  private static String run(Path gemini, Map<String, String> env, Path cwd, String... args) throws Exception {
    CliInstalls.Run run = CliInstalls.run(gemini, env, cwd, args);
    assertThat(run.exit()).as(run.out()).isZero();
    return run.out();
  }
}
