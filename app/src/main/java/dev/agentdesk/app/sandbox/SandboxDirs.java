package dev.agentdesk.app.sandbox;

import dev.agentdesk.app.serve.DataDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

/**
 * Where sandboxes keep their state: {@code $XDG_RUNTIME_DIR/agentdesk/sandboxes/ID} (a tmpfs the
 * session owns, emptied at logout, as the state of running processes should be), else
 * {@code <data dir>/sandboxes/ID}. Every folder on the way is 0700: a sandbox's folder holds its
 * ACI token and its door socket.
 */
final class SandboxDirs {
  static final String SPEC = "sandbox.json";
  static final String STATE = "state.json";
  static final String TOKEN = "token";
  static final String LOG = "supervisor.log";
  /** Bound read-write inside at {@link #GUEST_DOOR}: holds only the runtime's socket. */
  static final String DOOR = "door";
  /** Bound read-write inside at {@link #GUEST_LOGS}: the apps' and the guest's output. */
  static final String LOGS = "logs";
  static final String SOCKET = "aci.sock";

  static final String GUEST_BASE = "/run/agentdesk";
  static final String GUEST_DOOR = GUEST_BASE + "/door";
  static final String GUEST_LOGS = GUEST_BASE + "/logs";
  static final String GUEST_RECORDING = GUEST_BASE + "/recording";
  static final String GUEST_SPEC = GUEST_BASE + "/" + SPEC;
  static final String GUEST_TOKEN = GUEST_BASE + "/" + TOKEN;

  private SandboxDirs() {}

  static Path root(Map<String, String> env, Path home) {
    String run = env.get("XDG_RUNTIME_DIR");
    Path base = run != null && !run.isBlank() && Path.of(run).isAbsolute() && Files.isDirectory(Path.of(run))
        ? Path.of(run).resolve("agentdesk")
        : DataDirs.dataDir(env, home);
    return base.resolve("sandboxes");
  }

  static Path root() {
    return root(System.getenv(), DataDirs.home());
  }

  /** Creates {@code dir} and its parents owner-only. */
  static Path makePrivate(Path dir) {
    Path parent = dir.getParent();
    if (parent != null && !Files.isDirectory(parent)) {
      makePrivate(parent);
    }
    DataDirs.makePrivate(dir);
    return dir;
  }

  static void writeAtomically(Path file, String text) {
    try {
      Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
      Files.writeString(tmp, text);
      Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }
}
