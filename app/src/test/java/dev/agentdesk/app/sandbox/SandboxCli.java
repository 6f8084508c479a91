package dev.agentdesk.app.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdesk.app.serve.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The real {@code agentdesk sandbox} command line, each call a JVM of its own as a user's shell
 * would run it, with this test's XDG_RUNTIME_DIR (so its sandboxes' folders are the test's).
 * {@link #close} stops whatever sandbox a failed test left running.
 */
final class SandboxCli implements AutoCloseable {
  final Path runtimeDir;
  private final Map<String, String> extraEnv;

  SandboxCli(Path dir) throws IOException {
    this(dir, Map.of());
  }

  SandboxCli(Path dir, Map<String, String> extraEnv) throws IOException {
    this.runtimeDir = Files.createDirectories(dir.resolve("run"));
    Files.setPosixFilePermissions(runtimeDir, PosixFilePermissions.fromString("rwx------"));
    this.extraEnv = Map.copyOf(extraEnv);
  }

  record Result(int exit, String out, String err) {
    JsonNode json() {
      try {
        return Json.MAPPER.readTree(out);
      } catch (IOException e) {
        throw new AssertionError("not JSON: " + out + "\nstderr: " + err, e);
      }
    }
  }

  Result run(String... args) throws Exception {
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", cp, "dev.agentdesk.app.Main"));
    argv.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(argv);
    pb.environment().put("XDG_RUNTIME_DIR", runtimeDir.toString());
    pb.environment().putAll(extraEnv);
    Path out = Files.createTempFile(runtimeDir, "out", ".txt");
    Path err = Files.createTempFile(runtimeDir, "err", ".txt");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(
        new java.io.File("/dev/null")));
    Process p = pb.start();
    if (!p.waitFor(150, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("agentdesk " + String.join(" ", args) + " did not end within 150 s");
    }
    Result r = new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
    Files.delete(out);
    Files.delete(err);
    return r;
  }

  /** {@code sandbox start --json ARGS}, which must succeed. */
  JsonNode start(String... args) throws Exception {
    List<String> a = new ArrayList<>(List.of("sandbox", "start", "--json"));
    a.addAll(List.of(args));
    Result r = run(a.toArray(String[]::new));
    assertThat(r.exit()).as("sandbox start: %s %s", r.out(), r.err()).isZero();
    return r.json();
  }

  /** The id of the PID namespace a started sandbox runs in (the bwrap child below its supervisor). */
  static String pidNamespace(long supervisorPid) throws IOException {
    String own = Files.readSymbolicLink(Path.of("/proc/self/ns/pid")).toString();
    for (ProcessHandle h : ProcessHandle.of(supervisorPid).orElseThrow().descendants().toList()) {
      try {
        String ns = Files.readSymbolicLink(Path.of("/proc", Long.toString(h.pid()), "ns", "pid")).toString();
        if (!ns.equals(own)) {
          return ns;
        }
      } catch (IOException gone) {
        // a process that just ended
      }
    }
    throw new AssertionError("no process of supervisor " + supervisorPid + " is in a PID namespace of its own");
  }

  /** Every process on the machine that is in PID namespace {@code ns}, read from /proc. */
  static Set<Long> processesIn(String ns) throws IOException {
    Set<Long> found = new HashSet<>();
    try (var dirs = Files.list(Path.of("/proc"))) {
      for (Path d : dirs.toList()) {
        String name = d.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit)) {
          continue;
        }
        try {
          if (Files.readSymbolicLink(d.resolve("ns/pid")).toString().equals(ns)) {
            found.add(Long.parseLong(name));
          }
        } catch (IOException gone) {
          // ended while we looked
        }
      }
    }
    return found;
  }

  /** Runs {@code argv} inside the sandbox through ACI exec (the real {@code agentdesk aci exec}). */
  static dev.agentdesk.app.CliRun exec(JsonNode sandbox, String... argv) {
    List<String> a = new ArrayList<>(List.of("aci", "--url", sandbox.path("url").asText(), "--token-file",
        sandbox.path("token_file").asText(), "exec", "--"));
    a.addAll(List.of(argv));
    return dev.agentdesk.app.CliRun.run(a.toArray(String[]::new));
  }

  @Override
  public void close() throws Exception {
    Result list = run("sandbox", "list", "--json");
    if (list.exit() != 0) {
      return;
    }
    for (JsonNode s : list.json()) {
      run("sandbox", "stop", s.path("id").asText());
    }
  }

  static Optional<ProcessHandle> alive(long pid) {
    return ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
  }
}
