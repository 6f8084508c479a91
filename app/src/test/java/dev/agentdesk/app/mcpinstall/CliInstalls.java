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

  /** What an in-process {@code mcp install} printed and its exit status. */
  record Outcome(int exit, String out, String err) {}

  /** {@code mcp install ARGS…} on {@code env}; a UserError is exit 2 with its message, as the launcher's handler does. */
  static Outcome execute(Map<String, String> env, List<String> args) {
    McpInstallCommand cmd = new McpInstallCommand();
    cmd.env = env;
    CommandLine cl = new CommandLine(cmd);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    cl.setExecutionExceptionHandler((ex, c, p) -> {
      err.write(ex.getMessage());
      return ex instanceof dev.agentdesk.app.cli.UserError ? 2 : 1;
    });
    int exit = cl.execute(args.toArray(String[]::new));
    return new Outcome(exit, out.toString(), err.toString());
  }

  /** {@code mcp install --client CLIENT --command AGENTDESK MORE…}; fails unless it exits 0. */
  static String install(String client, Map<String, String> env, Path agentdesk, String... more) {
    List<String> args = new ArrayList<>(List.of("--client", client, "--command", agentdesk.toString()));
    args.addAll(List.of(more));
    Outcome o = execute(env, args);
    assertThat(o.exit()).as(o.err()).isZero();
    return o.out();
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
