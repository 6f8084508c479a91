package dev.agentdesk.app.doctor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Finding programs on a PATH and running them briefly, with a timeout, for their version. */
final class Programs {
  /** What a run printed (stdout and stderr together), its exit code, or that it timed out. */
  record Run(int exit, String output, boolean timedOut) {
    String firstLine() {
      return output.lines().map(String::strip).filter(l -> !l.isEmpty()).findFirst().orElse("");
    }
  }

  private final Map<String, String> env;

  Programs(Map<String, String> env) {
    this.env = env;
  }

  /** The first executable {@code name} on this environment's PATH. */
  Optional<Path> find(String name) {
    String path = env.getOrDefault("PATH", "");
    for (String dir : path.split(":")) {
      if (dir.isEmpty()) {
        continue;
      }
      Path p = Path.of(dir).resolve(name);
      if (Files.isRegularFile(p) && Files.isExecutable(p)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  /** Runs {@code argv} with this environment; kills it (and its children) after {@code timeout}. */
  Run run(List<String> argv, Duration timeout) {
    Path out = null;
    try {
      out = Files.createTempFile("agentdesk-doctor", ".out");
      ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(out.toFile())
          .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
      pb.environment().clear();
      pb.environment().putAll(env);
      Process p = pb.start();
      boolean done = p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (!done) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        p.waitFor(2, TimeUnit.SECONDS);
      }
      String text = Files.readString(out, StandardCharsets.UTF_8);
      return new Run(done ? p.exitValue() : -1, text.length() > 4000 ? text.substring(0, 4000) : text, !done);
    } catch (IOException e) {
      return new Run(-1, e.getMessage() == null ? e.toString() : e.getMessage(), false);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Run(-1, "interrupted", false);
    } finally {
      if (out != null) {
        try {
          Files.deleteIfExists(out);
        } catch (IOException ignored) {
          // a temp file left behind is harmless
        }
      }
    }
  }
}
