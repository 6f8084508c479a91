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
    Run list = codex(codex, env, "mcp", "list");
    assertThat(list.exit()).as(list.out()).isZero();
    assertThat(list.out()).containsPattern("(?m)^agentdesk\\s+" + java.util.regex.Pattern.quote(agentdesk.toString())
        + "\\s+mcp\\s").containsPattern("(?m)^docs\\s+docs-server\\s+--stdio\\s");
    Run got = codex(codex, env, "mcp", "get", "agentdesk");
    assertThat(got.exit()).as(got.out()).isZero();
    assertThat(got.out()).contains("transport: stdio").contains("command: " + agentdesk).contains("args: mcp");
    String file = Files.readString(config);

    assertThat(install(env, agentdesk)).contains("nothing changed");
    assertThat(Files.readString(config)).isEqualTo(file);

    assertThat(install(env, agentdesk, "--remove")).contains("codex: removed");
    Run gone = codex(codex, env, "mcp", "get", "agentdesk");
    assertThat(gone.exit()).isNotZero();
    assertThat(gone.out()).contains("No MCP server named 'agentdesk' found");
    Run after = codex(codex, env, "mcp", "list");
    assertThat(after.out()).doesNotContain(agentdesk.toString()).containsPattern("(?m)^docs\\s+docs-server");
    assertThat(Files.readString(config)).startsWith("# my settings\nmodel = \"gpt-5-codex\"");
  }

  private static String install(Map<String, String> env, Path agentdesk, String... more) {
    McpInstallCommand cmd = new McpInstallCommand();
    cmd.env = env;
    CommandLine cl = new CommandLine(cmd);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    List<String> args = new ArrayList<>(List.of("--client", "codex", "--command", agentdesk.toString()));
    args.addAll(List.of(more));
    int exit = cl.execute(args.toArray(String[]::new));
    assertThat(exit).as(err.toString()).isZero();
    return out.toString();
  }

  record Run(int exit, String out) {}

  private static Run codex(Path codex, Map<String, String> env, String... args) throws Exception {
    List<String> argv = new ArrayList<>(List.of(codex.toString()));
    argv.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
    pb.environment().clear();
    pb.environment().putAll(env);
    Process p = pb.start();
    p.getOutputStream().close();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("codex " + String.join(" ", args) + " finishes").isTrue();
    return new Run(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
  }
}
