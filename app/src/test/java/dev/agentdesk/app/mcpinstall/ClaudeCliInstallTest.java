package dev.agentdesk.app.mcpinstall;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mcp install --client claude} through the real Claude Code CLI on a temp HOME: afterwards
 * {@code claude mcp get agentdesk} shows our command, a second run changes nothing, --remove makes
 * {@code claude mcp get} say it is gone. The CLI is the pinned one that scripts/setup-agents installs
 * (agents/real-agents.versions, ~/.cache/agentdesk/real-agents) when present, else {@code claude} on
 * this machine's PATH; with neither, the test is skipped and says so (the file path is covered by
 * {@link McpInstallCommandTest}).
 */
public class ClaudeCliInstallTest {
  @TempDir Path tmp;

  /** The pinned Claude Code of scripts/setup-agents, else claude on PATH (also used by DistAcceptanceTest). */
  public static Optional<Path> realClaude() throws IOException {
    Path root = Path.of(System.getProperty("agentdesk.repo.root", "..")).toAbsolutePath().normalize();
    Path versions = root.resolve("agents/real-agents.versions");
    if (Files.isRegularFile(versions)) {
      String cache = Optional.ofNullable(System.getenv("AGENTDESK_REAL_AGENTS"))
          .orElse(System.getProperty("user.home") + "/.cache/agentdesk/real-agents");
      for (String line : Files.readAllLines(versions)) {
        String[] f = line.strip().split("\\s+");
        if (f.length >= 3 && f[0].equals("claude")) {
          Path bin = Path.of(cache, "claude-" + f[2], "node_modules/.bin/claude");
          if (Files.isExecutable(bin)) {
            return Optional.of(bin);
          }
        }
      }
    }
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      Path p = Path.of(dir.isEmpty() ? "." : dir, "claude");
      if (Files.isExecutable(p)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  @Test
  void claudeMcpGetShowsAgentdeskAfterInstallAndNotAfterRemove() throws Exception {
    Optional<Path> claude = realClaude();
    dev.agentdesk.testkit.Required.that(claude.isPresent(), "no Claude Code CLI (scripts/setup-agents, or claude on PATH): the CLI path is not run");
    Path home = Files.createDirectories(tmp.resolve("home"));
    Path bin = Files.createDirectories(tmp.resolve("bin"));
    Files.createSymbolicLink(bin.resolve("claude"), claude.get().toRealPath());
    // node for an npm-installed CLI; nothing else of the machine's PATH.
    Path node = Path.of("/usr/bin/node");
    if (Files.isExecutable(node)) {
      Files.createSymbolicLink(bin.resolve("node"), node);
    }
    Map<String, String> env = new HashMap<>(Map.of("HOME", home.toString(), "PATH", bin + ":/bin"));
    Path agentdesk = tmp.resolve("opt/agentdesk/bin/agentdesk");

    String first = install(env, agentdesk);
    assertThat(first).contains("claude: added " + home.resolve(".claude.json")).contains("claude mcp add --scope user");
    String got = claudeRun(env, "mcp", "get", "agentdesk");
    assertThat(got).contains("agentdesk").contains(agentdesk.toString()).contains("mcp");
    String file = Files.readString(home.resolve(".claude.json"));

    assertThat(install(env, agentdesk)).contains("nothing changed");
    assertThat(Files.readString(home.resolve(".claude.json"))).isEqualTo(file);

    assertThat(install(env, agentdesk, "--remove")).contains("claude: removed mcpServers.agentdesk");
    assertThat(claudeRun(env, "mcp", "get", "agentdesk")).doesNotContain(agentdesk.toString());
    assertThat(Files.readString(home.resolve(".claude.json"))).doesNotContain("\"agentdesk\"");
  }

  private static String install(Map<String, String> env, Path agentdesk, String... more) {
    return CliInstalls.install("claude", env, agentdesk, more);
  }

  private String claudeRun(Map<String, String> env, String... args) throws Exception {
    return CliInstalls.run(tmp.resolve("bin/claude"), env, null, args).out();
  }
}
