package dev.agentdesk.reliability;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the {@code agentdesk} CLI ({@code dev.agentdesk.app.Main}) in a child JVM with the test
 * classpath, so a test can SIGKILL it ({@link Process#destroyForcibly()} is {@code kill -9} on
 * Linux) and measure it from outside (its PID's {@code /proc} entries).
 */
final class AgentdeskChild {
  private AgentdeskChild() {}

  /**
   * Starts {@code agentdesk ARGS} with stdout and stderr appended to {@code log} (or discarded
   * when null); {@code env} is added to this JVM's environment.
   */
  static Process start(List<String> jvmOptions, List<String> args, Map<String, String> env, Path log)
      throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.addAll(jvmOptions);
    cmd.add("dev.agentdesk.app.Main");
    cmd.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().putAll(env);
    if (log == null) {
      pb.redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
    } else {
      pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    }
    return pb.start();
  }

  /**
   * Runs {@code agentdesk ARGS} to the end and returns its exit status; with {@code
   * killAfterMillis >= 0} it is SIGKILLed then if still running (status 137).
   */
  static int run(List<String> jvmOptions, List<String> args, long killAfterMillis) throws Exception {
    Process p = start(jvmOptions, args, Map.of(), null);
    if (killAfterMillis >= 0 && !p.waitFor(killAfterMillis, TimeUnit.MILLISECONDS)) {
      kill9(p);
      return 137;
    }
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      kill9(p);
      throw new AssertionError("agentdesk " + args + " did not finish in 5 minutes");
    }
    return p.exitValue();
  }

  /** SIGKILL, and wait until the process is gone (its files are closed by the kernel). */
  static void kill9(Process p) throws InterruptedException {
    p.destroyForcibly();
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      throw new AssertionError("pid " + p.pid() + " survived SIGKILL for 30 s");
    }
  }
}
