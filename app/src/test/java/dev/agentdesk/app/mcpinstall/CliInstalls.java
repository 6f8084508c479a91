package dev.agentdesk.app.mcpinstall;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;

/**
 * What the {@code *CliInstallTest}s share: {@code mcp install} run in-process on a given
 * environment, and the real agent CLI run on the same environment to read the result back.
 */
final class CliInstalls {
  private CliInstalls() {}

  /** {@code mcp install --client CLIENT --command AGENTDESK MORE…}; fails unless it exits 0. */
  static String install(String client, Map<String, String> env, Path agentdesk, String... more) {
    McpInstallCommand cmd = new McpInstallCommand();
    cmd.env = env;
    CommandLine cl = new CommandLine(cmd);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    List<String> args = new ArrayList<>(List.of("--client", client, "--command", agentdesk.toString()));
    args.addAll(List.of(more));
    int exit = cl.execute(args.toArray(String[]::new));
    assertThat(exit).as(err.toString()).isZero();
    return out.toString();
  }

  record Run(int exit, String out) {}

  /** Runs {@code cli ARGS…} with exactly {@code env}, in {@code cwd} (null: ours), no input, 60 s at most. */
  static Run run(Path cli, Map<String, String> env, Path cwd, String... args) throws Exception {
    List<String> argv = new ArrayList<>(List.of(cli.toString()));
    argv.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
    if (cwd != null) {
      pb.directory(cwd.toFile());
    }
    pb.environment().clear();
    pb.environment().putAll(env);
    Process p = pb.start();
    p.getOutputStream().close();
    String name = cli.getFileName() + " " + String.join(" ", args);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(name + " finishes").isTrue();
    return new Run(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
  }
}
