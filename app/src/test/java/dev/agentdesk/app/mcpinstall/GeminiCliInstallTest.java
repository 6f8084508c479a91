package dev.agentdesk.app.mcpinstall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdesk.testkit.RealAgents;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

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
    McpInstallCommand cmd = new McpInstallCommand();
    cmd.env = env;
    CommandLine cl = new CommandLine(cmd);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    List<String> args = new ArrayList<>(List.of("--client", "gemini", "--command", agentdesk.toString()));
    args.addAll(List.of(more));
    int exit = cl.execute(args.toArray(String[]::new));
    assertThat(exit).as(err.toString()).isZero();
    return out.toString();
  }

  private static String run(Path gemini, Map<String, String> env, Path cwd, String... args) throws Exception {
    List<String> argv = new ArrayList<>(List.of(gemini.toString()));
    argv.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(argv).directory(cwd.toFile()).redirectErrorStream(true);
    pb.environment().clear();
    pb.environment().putAll(env);
    Process p = pb.start();
    p.getOutputStream().close();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("gemini " + String.join(" ", args) + " finishes").isTrue();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(out).isZero();
    return out;
  }
}
