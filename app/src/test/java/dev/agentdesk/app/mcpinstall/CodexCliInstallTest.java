package dev.agentdesk.app.mcpinstall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.testkit.RealAgents;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mcp install --client codex} read back by the real Codex CLI (the pinned one of
 * agents/real-agents.versions; missing, the test fails naming scripts/setup-agents) on a temp
 * {@code CODEX_HOME} whose config.toml already holds the user's settings: afterwards
 * {@code codex mcp list} and {@code codex mcp get agentdesk} show our command and arguments, a
 * second run changes nothing, and after --remove {@code codex mcp get agentdesk} finds no such
 * server while the user's settings are still read.
 */
class CodexCliInstallTest {
  @TempDir Path tmp;

  @Test
  void codexMcpListAndGetShowAgentdeskAfterInstallAndNotAfterRemove() throws Exception {
    Path codex = RealAgents.require("codex").executable();
    Path home = Files.createDirectories(tmp.resolve("home"));
    Path codexHome = Files.createDirectories(tmp.resolve("codex-home"));
    Path config = codexHome.resolve("config.toml");
    Files.writeString(config, """
        # my settings
        model = "gpt-5-codex"

        [mcp_servers.docs]
        command = "docs-server"
        args = ["--stdio"]
        """);
    Map<String, String> env = Map.of("HOME", home.toString(), "CODEX_HOME", codexHome.toString(),
        "PATH", codex.getParent() + ":/usr/bin:/bin");
    Path agentdesk = tmp.resolve("opt/agentdesk/bin/agentdesk");

    assertThat(install(env, agentdesk)).contains("codex: added " + config + " ([mcp_servers.agentdesk])");
    CliInstalls.Run list = codex(codex, env, "mcp", "list");
    assertThat(list.exit()).as(list.out()).isZero();
    assertThat(list.out()).containsPattern("(?m)^agentdesk\\s+" + java.util.regex.Pattern.quote(agentdesk.toString())
        + "\\s+mcp\\s").containsPattern("(?m)^docs\\s+docs-server\\s+--stdio\\s");
    CliInstalls.Run got = codex(codex, env, "mcp", "get", "agentdesk");
    assertThat(got.exit()).as(got.out()).isZero();
    assertThat(got.out()).contains("transport: stdio").contains("command: " + agentdesk).contains("args: mcp");
    String file = Files.readString(config);

    assertThat(install(env, agentdesk)).contains("nothing changed");
    assertThat(Files.readString(config)).isEqualTo(file);

    assertThat(install(env, agentdesk, "--remove")).contains("codex: removed");
    CliInstalls.Run gone = codex(codex, env, "mcp", "get", "agentdesk");
    assertThat(gone.exit()).isNotZero();
    assertThat(gone.out()).contains("No MCP server named 'agentdesk' found");
    CliInstalls.Run after = codex(codex, env, "mcp", "list");
    assertThat(after.out()).doesNotContain(agentdesk.toString()).containsPattern("(?m)^docs\\s+docs-server");
    assertThat(Files.readString(config)).startsWith("# my settings\nmodel = \"gpt-5-codex\"");
  }

  private static String install(Map<String, String> env, Path agentdesk, String... more) {
    return CliInstalls.install("codex", env, agentdesk, more);
  }

  private static CliInstalls.Run codex(Path codex, Map<String, String> env, String... args) throws Exception {
    return CliInstalls.run(codex, env, null, args);
  }
}
