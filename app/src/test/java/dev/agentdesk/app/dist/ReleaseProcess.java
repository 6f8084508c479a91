package dev.agentdesk.app.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs an installed agentdesk the way a user's shell would, with a PATH that has no java and no mvn:
 * only a folder of links to the few POSIX tools the launcher uses.
 */
final class ReleaseProcess {
  /** The tools bin/agentdesk calls (sh, readlink, dirname, basename, cat); nothing else. */
  static Path minimalPath(Path dir) throws IOException {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    for (String tool : List.of("sh", "readlink", "dirname", "basename", "cat", "pwd")) {
      for (String from : List.of("/usr/bin/", "/bin/")) {
        Path p = Path.of(from + tool);
        if (Files.isExecutable(p) && !Files.exists(bin.resolve(tool))) {
          Files.createSymbolicLink(bin.resolve(tool), p.toRealPath());
        }
      }
    }
    return bin;
  }

  record Result(int exit, String out, String err) {}

  static Result run(Path exe, Map<String, String> env, Duration timeout, String... args) throws IOException, InterruptedException {
    Path out = Files.createTempFile("release", ".out");
    Path err = Files.createTempFile("release", ".err");
    try {
      Process p = start(exe, env, args).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
      p.getOutputStream().close();
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        throw new AssertionError(exe + " " + String.join(" ", args) + " did not finish within " + timeout);
      }
      return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  static ProcessBuilder start(Path exe, Map<String, String> env, String... args) {
    List<String> argv = new ArrayList<>(List.of(exe.toString()));
    argv.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(argv);
    pb.environment().clear();
    pb.environment().putAll(env);
    return pb;
  }

  /** Reads lines of {@code p}'s stdout until one contains {@code marker}, within {@code timeout}. */
  static String awaitLine(Process p, BufferedReader r, String marker, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    StringBuilder seen = new StringBuilder();
    while (System.nanoTime() < deadline) {
      if (r.ready()) {
        String line = r.readLine();
        if (line == null) {
          break;
        }
        seen.append(line).append('\n');
        if (line.contains(marker)) {
          return line;
        }
      } else if (!p.isAlive()) {
        break;
      } else {
        Thread.sleep(20);
      }
    }
    throw new AssertionError("no line with '" + marker + "' within " + timeout + "; got:\n" + seen
        + (p.isAlive() ? "" : "(exited " + p.exitValue() + ")"));
  }

  static BufferedReader reader(Process p) {
    return new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
  }

  static void stop(Process p) throws InterruptedException {
    p.destroy();
    if (!p.waitFor(15, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      p.waitFor(5, TimeUnit.SECONDS);
    }
    assertThat(p.isAlive()).isFalse();
  }

  private ReleaseProcess() {}
}
