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
    McpInstallCommand cmd = new McpInstallCommand();
    cmd.env = env;
    CommandLine cl = new CommandLine(cmd);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    List<String> args = new ArrayList<>(List.of("--client", "opencode", "--command", agentdesk.toString()));
    args.addAll(List.of(more));
    int exit = cl.execute(args.toArray(String[]::new));
    assertThat(exit).as(err.toString()).isZero();
    return out.toString();
  }

  private String opencode(Path executable, Map<String, String> env, String... args) throws Exception {
    List<String> argv = new ArrayList<>(List.of(executable.toString()));
    argv.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true).directory(tmp.toFile());
    pb.environment().clear();
    pb.environment().putAll(env);
    Process p = pb.start();
    p.getOutputStream().close();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("opencode " + String.join(" ", args) + " finishes").isTrue();
    // the listing is coloured; the rows are what counts
    return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).replaceAll("\u001b\\[[0-9;]*m", "");
  }
}
