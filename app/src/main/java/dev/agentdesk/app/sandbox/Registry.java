package dev.agentdesk.app.sandbox;

import dev.agentdesk.app.serve.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** This user's sandboxes, as their folders say, checked against the processes that really run. */
final class Registry {
  static final long STOP_TIMEOUT_MS = Supervisor.GRACE_MS + 5_000;

  private Registry() {}

  static List<SandboxState> all(Path root) throws IOException {
    List<SandboxState> out = new ArrayList<>();
    if (!Files.isDirectory(root)) {
      return out;
    }
    try (Stream<Path> dirs = Files.list(root)) {
      for (Path d : dirs.sorted().toList()) {
        Path f = d.resolve(SandboxDirs.STATE);
        if (!Files.isRegularFile(f)) {
          continue;
        }
        SandboxState s;
        try {
          s = Json.MAPPER.readValue(Files.readString(f), SandboxState.class);
        } catch (IOException e) {
          continue; // a folder being written or not ours
        }
        boolean live = supervisor(s).isPresent();
        if (!live && ("running".equals(s.state()) || "starting".equals(s.state()))) {
          s = s.with("stopped", "its supervisor (pid " + s.pid() + ") is gone");
        }
        out.add(s);
      }
    }
    out.sort(Comparator.comparing(SandboxState::id));
    return out;
  }

  static Optional<SandboxState> find(Path root, String idOrName) throws IOException {
    List<SandboxState> all = all(root);
    return all.stream().filter(s -> s.id().equals(idOrName)).findFirst()
        .or(() -> all.stream().filter(s -> s.name().equals(idOrName)).findFirst());
  }

  /** The live supervisor of {@code s}: its pid, and its command line names its folder (no pid reuse). */
  static Optional<ProcessHandle> supervisor(SandboxState s) {
    return ProcessHandle.of(s.pid()).filter(ProcessHandle::isAlive).filter(h -> {
      try {
        String cmdline = Files.readString(Path.of("/proc", Long.toString(s.pid()), "cmdline")).replace('\0', ' ');
        return cmdline.contains(" sandbox supervise " + s.dir());
      } catch (IOException e) {
        return false;
      }
    });
  }

  /**
   * SIGTERM to the supervisor (it stops the sandbox in order), SIGKILL when it outlives
   * {@link #STOP_TIMEOUT_MS} (bwrap then dies with it, and the namespace with bwrap); then serve
   * forgets it (when the supervisor could not say so itself) and its folder goes.
   */
  static void stop(Path root, SandboxState s) throws Exception {
    Optional<ProcessHandle> h = supervisor(s);
    if (h.isPresent()) {
      ProcessHandle p = h.get();
      p.destroy();
      try {
        p.onExit().get(STOP_TIMEOUT_MS, TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.TimeoutException e) {
        p.destroyForcibly();
        p.onExit().get(5, TimeUnit.SECONDS);
      }
    }
    Path dir = root.resolve(s.id());
    try {
      SandboxSpec spec = Json.MAPPER.readValue(Files.readString(dir.resolve(SandboxDirs.SPEC)), SandboxSpec.class);
      Supervisor.unregister(spec);
    } catch (IOException e) {
      // no spec: nothing was registered
    }
    remove(dir);
  }

  static void remove(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
