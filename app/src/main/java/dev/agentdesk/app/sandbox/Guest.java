package dev.agentdesk.app.sandbox;

import dev.agentdesk.aci.recording.RecordingWriter;
import dev.agentdesk.aci.runtime.AciRuntime;
import dev.agentdesk.aci.runtime.atspi.AtspiSettings;
import dev.agentdesk.app.AppVersion;
import dev.agentdesk.app.runtime.RecordingTap;
import dev.agentdesk.app.serve.Json;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The sandbox's first program, run inside bubblewrap ({@code agentdesk sandbox guest}): starts the
 * desktop — Xvfb, a session bus with the accessibility bus, openbox, the apps, Chromium — and the
 * ACI runtime on loopback, opens the door (the unix socket in the shared door folder), prints
 * {@link #READY} and runs until its stdin ends (the supervisor closes it to stop it), then stops
 * the runtime (so a recording is closed properly) and everything it started.
 */
final class Guest {
  static final String READY = "agentdesk-sandbox-ready";
  private static final long START_TIMEOUT_MS = 20_000;

  private final SandboxSpec spec;
  private final List<Process> started = new ArrayList<>();

  Guest(SandboxSpec spec) {
    this.spec = spec;
  }

  static SandboxSpec readSpec() throws IOException {
    return Json.MAPPER.readValue(Files.readString(Path.of(SandboxDirs.GUEST_SPEC)), SandboxSpec.class);
  }

  int run() throws Exception {
    Path priv = Files.createDirectories(Path.of(Bubblewrap.PRIVATE, "xdg"));
    Files.setPosixFilePermissions(priv, PosixFilePermissions.fromString("rwx------"));
    Files.setPosixFilePermissions(priv.getParent(), PosixFilePermissions.fromString("rwx------"));
    String display = ":" + spec.display();
    AciRuntime runtime = null;
    RecordingWriter recording = null;
    SocketBridge door = null;
    try {
      spawn("xvfb", List.of("Xvfb", display, "-screen", "0", spec.width() + "x" + spec.height() + "x24", "-nolisten",
          "tcp", "-noreset", "+extension", "XTEST", "+extension", "MIT-SHM"));
      await("Xvfb's socket", () -> Files.exists(Path.of("/tmp/.X11-unix/X" + spec.display())));
      spawn("dbus", List.of("dbus-daemon", "--session", "--nofork", "--nopidfile", "--address=" + Bubblewrap.BUS));
      await("the session bus", () -> Files.exists(Path.of(Bubblewrap.PRIVATE, "bus")));
      spawn("at-spi", List.of("/usr/libexec/at-spi-bus-launcher", "--launch-immediately"));
      // Apps start once openbox manages the screen: a window mapped before that stays unmanaged
      // (no frame, no focus, not in _NET_CLIENT_LIST; CI caught xterm so, its window never listed).
      // openbox runs its --startup command when its start-up is done.
      Path wmReady = Path.of(Bubblewrap.PRIVATE, "wm-ready");
      spawn("openbox", List.of("openbox", "--startup", "touch " + wmReady));
      await("the window manager", () -> Files.exists(wmReady));
      int n = 0;
      for (List<String> app : spec.apps()) {
        spawn("app-" + ++n, app);
      }
      if (spec.browser() != null) {
        spawn("browser", browserArgv(spec.browser()));
      }
      String token = Files.readString(Path.of(SandboxDirs.GUEST_TOKEN)).strip();
      AciRuntime.Options options = new AciRuntime.Options("127.0.0.1", 0, token, true, List.of(), display, null,
          AppVersion.current());
      if (spec.record() != null) {
        recording = RecordingWriter.open(Path.of(SandboxDirs.GUEST_RECORDING), RecordingWriter.Limits.defaults());
        runtime = AciRuntime.start(options, AtspiSettings.fromEnvironment(System.getenv()),
            new RecordingTap(recording, System.err));
      } else {
        runtime = AciRuntime.start(options);
      }
      InetSocketAddress inner = new InetSocketAddress("127.0.0.1", runtime.port());
      Path sock = Path.of(SandboxDirs.GUEST_DOOR, SandboxDirs.SOCKET);
      Files.deleteIfExists(sock);
      door = SocketBridge.start(UnixDomainSocketAddress.of(sock), () -> inner, "sandbox-door");
      System.out.println(READY);
      System.out.flush();
      // Runs until the supervisor closes our stdin (or dies: the pipe ends with it).
      while (System.in.read() >= 0) {
        // nothing is sent on stdin; any byte is ignored
      }
      return 0;
    } finally {
      if (door != null) {
        door.close();
      }
      if (runtime != null) {
        runtime.close();
      }
      if (recording != null) {
        try {
          recording.close();
        } catch (RuntimeException e) {
          System.err.println("agentdesk sandbox: " + e.getMessage());
        }
      }
      stopAll();
    }
  }

  /** Chromium with its accessibility tree on AT-SPI, its profile in the private home. */
  static List<String> browserArgv(String url) {
    List<String> a = new ArrayList<>(List.of("chromium", "--force-renderer-accessibility", "--no-first-run",
        "--no-default-browser-check", "--disable-gpu", "--disable-dev-shm-usage", "--password-store=basic",
        "--user-data-dir=" + Bubblewrap.HOME + "/.config/chromium", "--window-position=0,0"));
    a.add(url);
    return a;
  }

  private void spawn(String name, List<String> argv) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(argv);
    pb.directory(new File(Bubblewrap.HOME));
    pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    pb.redirectOutput(new File(SandboxDirs.GUEST_LOGS, name + ".out"));
    pb.redirectError(new File(SandboxDirs.GUEST_LOGS, name + ".err"));
    try {
      started.add(pb.start());
    } catch (IOException e) {
      throw new IOException("cannot start " + name + " (" + String.join(" ", argv) + "): " + e.getMessage(), e);
    }
  }

  private void await(String what, java.util.function.BooleanSupplier ready) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(START_TIMEOUT_MS);
    while (!ready.getAsBoolean()) {
      for (Process p : started) {
        if (!p.isAlive()) {
          throw new IOException(p.info().command().orElse("a process") + " exited with status " + p.exitValue()
              + " while waiting for " + what);
        }
      }
      if (System.nanoTime() > deadline) {
        throw new IOException(what + " was not ready within " + START_TIMEOUT_MS / 1000 + " s");
      }
      Thread.sleep(20);
    }
  }

  /** SIGTERM to everything below this JVM, newest first; SIGKILL to what is left after a second. */
  private void stopAll() {
    List<ProcessHandle> all = new ArrayList<>(ProcessHandle.current().descendants().toList());
    java.util.Collections.reverse(all);
    all.forEach(ProcessHandle::destroy);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
    for (ProcessHandle h : all) {
      try {
        h.onExit().get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (Exception e) {
        h.destroyForcibly();
      }
    }
  }
}
