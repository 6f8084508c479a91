package dev.agentdesk.app.mcpinstall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.testkit.RealAgents;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mcp install --client copilot} read back by the real Copilot CLI (the pinned one of
 * agents/real-agents.versions) on a temp HOME, offline: {@code copilot mcp get agentdesk} shows our
 * command with all its tools, a second run changes nothing, and after --remove the CLI no longer
 * lists it. Copilot reads {@code ~/.copilot/mcp-config.json} without a login.
 */
class CopilotCliInstallTest {
  @TempDir Path tmp;

  @Test
  void copilotMcpGetShowsAgentdeskAfterInstallAndMcpListNotAfterRemove() throws Exception {
    Path copilot = RealAgents.require("copilot").executable();
    Path home = Files.createDirectories(tmp.resolve("home"));
    Map<String, String> env = Map.of("HOME", home.toString(), "PATH", "/usr/bin:/bin", "COPILOT_OFFLINE", "true",
        "COPILOT_AUTO_UPDATE", "false");
    Path agentdesk = tmp.resolve("opt/agentdesk/bin/agentdesk");
    Path file = home.resolve(".copilot/mcp-config.json");

    assertThat(install(env, agentdesk)).contains("copilot").contains(file.toString());
    String got = run(copilot, env, "mcp", "get", "agentdesk");
    assertThat(got).contains("Type: local").contains("Command: " + agentdesk + " mcp").contains("Tools: * (all)");
    assertThat(run(copilot, env, "mcp", "list")).contains("agentdesk (local)");
    String written = Files.readString(file);

    assertThat(install(env, agentdesk)).contains("nothing changed");
    assertThat(Files.readString(file)).isEqualTo(written);

    install(env, agentdesk, "--remove");
    assertThat(run(copilot, env, "mcp", "list")).doesNotContain("agentdesk");
    if (Files.exists(file)) {
      assertThat(Files.readString(file)).doesNotContain("\"agentdesk\"");
    }
  }

  @Test
  void withCopilotHomeTheServerIsWrittenWhereCopilotReadsIt() throws Exception {
    Path copilot = RealAgents.require("copilot").executable();
    Path home = Files.createDirectories(tmp.resolve("home"));
    Path copilotHome = Files.createDirectories(tmp.resolve("copilot-home"));
    Map<String, String> env = Map.of("HOME", home.toString(), "COPILOT_HOME", copilotHome.toString(), "PATH",
        "/usr/bin:/bin", "COPILOT_OFFLINE", "true", "COPILOT_AUTO_UPDATE", "false");
    Path agentdesk = tmp.resolve("opt/agentdesk/bin/agentdesk");
    assertThat(install(env, agentdesk)).contains(copilotHome.resolve("mcp-config.json").toString());
    assertThat(run(copilot, env, "mcp", "list")).contains("agentdesk (local)");
    assertThat(home.resolve(".copilot/mcp-config.json")).doesNotExist();
  }

  private static String install(Map<String, String> env, Path agentdesk, String... more) {
    return CliInstalls.install("copilot", env, agentdesk, more);
  }

  private String run(Path copilot, Map<String, String> env, String... args) throws Exception {
    return CliInstalls.run(copilot, env, tmp, args).out();
  }
}
