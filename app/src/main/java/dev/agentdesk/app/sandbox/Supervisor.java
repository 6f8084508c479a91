package dev.agentdesk.app.sandbox;

import dev.agentdesk.app.runtime.StopSignals;
import dev.agentdesk.app.serve.Json;
import dev.agentdesk.app.serve.ServerClient;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The process outside the sandbox ({@code agentdesk sandbox supervise DIR}, started detached by
 * {@code sandbox start}): it starts bubblewrap from a thread restricted by {@link Landlock} and
 * kept alive for the sandbox's life, waits for the guest's ready line, opens the host end of the
 * door (a loopback port forwarded to the door socket), registers the sandbox with serve, writes
 * {@code state.json}, prints it as one line for {@code start}, and then waits for SIGTERM (from
 * {@code sandbox stop}) or for the sandbox to end by itself. Stopping: unregister, close the
 * door, close the guest's stdin (it stops its runtime and desktop in order), and if bwrap is still
 * there after {@link #GRACE_MS}, SIGKILL it, which ends every process of the namespace.
 */
final class Supervisor {
  static final long READY_TIMEOUT_MS = 60_000;
  static final long GRACE_MS = 5_000;

  private final Path dir;
  private final SandboxSpec spec;
  private final PrintStream log;
  private final CompletableFuture<Process> bwrap = new CompletableFuture<>();
  private final CompletableFuture<Integer> exited = new CompletableFuture<>();

  Supervisor(Path dir, SandboxSpec spec, PrintStream log) {
    this.dir = dir;
    this.spec = spec;
    this.log = log;
  }

  int run(PrintStream out) {
    SandboxState state = new SandboxState(spec.id(), spec.name(), "starting", null,
        dir.resolve(SandboxDirs.TOKEN).toString(), ProcessHandle.current().pid(), dir.toString(), spec.network(),
        spec.browser() != null, spec.apps().stream().map(ShellWords::join).toList(), spec.server(), false,
        spec.record(), null);
    SandboxDirs.writeAtomically(dir.resolve(SandboxDirs.STATE), json(state));
    CountDownLatch stop = new CountDownLatch(1);
    StopSignals signals = StopSignals.install(stop::countDown);
    SocketBridge door = null;
    boolean registered = false;
    try {
      Process p = startBubblewrap();
      awaitReady(p);
      Path sock = dir.resolve(SandboxDirs.DOOR).resolve(SandboxDirs.SOCKET);
      door = SocketBridge.start(new InetSocketAddress("127.0.0.1", 0), () -> doorSocket(sock), "sandbox-host-door");
      int port = ((InetSocketAddress) door.localAddress()).getPort();
      String url = "ws://127.0.0.1:" + port + "/";
      state = new SandboxState(state.id(), state.name(), "running", url, state.token_file(), state.pid(), state.dir(),
          state.network(), state.browser(), state.apps(), state.server(), false, state.recording(), null);
      registered = register(url);
      state = new SandboxState(state.id(), state.name(), "running", url, state.token_file(), state.pid(), state.dir(),
          state.network(), state.browser(), state.apps(), state.server(), registered, state.recording(), null);
      SandboxDirs.writeAtomically(dir.resolve(SandboxDirs.STATE), json(state));
      out.println(json(state));
      out.flush();
      exited.thenRun(stop::countDown);
      stop.await();
      log.println("stopping" + (exited.isDone() ? ": the sandbox ended by itself" : ""));
      state = state.with("stopped", exited.isDone() ? "the sandbox's desktop ended by itself" : null);
      return 0;
    } catch (Exception e) {
      String message = e.getMessage() == null ? e.toString() : e.getMessage();
      log.println("failed: " + message);
      e.printStackTrace(log);
      state = state.with("failed", message);
      out.println(json(state));
      out.flush();
      return 1;
    } finally {
      if (registered) {
        unregister(spec);
      }
      if (door != null) {
        door.close();
      }
      stopBubblewrap();
      signals.close();
      SandboxDirs.writeAtomically(dir.resolve(SandboxDirs.STATE), json(state));
      log.flush();
    }
  }

  /** The door socket, refusing anything else the sandbox may have put in its place (a symlink to a host socket). */
  private static UnixDomainSocketAddress doorSocket(Path sock) {
    try {
      BasicFileAttributes a = Files.readAttributes(sock, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (!a.isOther()) {
        throw new IllegalStateException(sock + " is not a socket");
      }
    } catch (IOException e) {
      throw new IllegalStateException("no door socket " + sock, e);
    }
    return UnixDomainSocketAddress.of(sock);
  }

  private Process startBubblewrap() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<Path> cp = Arrays.stream(System.getProperty("java.class.path").split(":")).filter(s -> !s.isEmpty())
        .map(Path::of).toList();
    List<String> argv = Bubblewrap.argv(spec, dir, cp, java);
    Thread t = new Thread(() -> {
      try {
        int abi = Landlock.abi();
        if (abi >= Landlock.SCOPES_ABI) {
          Landlock.restrictThisThread();
        } else if (spec.network()) {
          throw new IllegalStateException("--network needs Landlock scopes (Linux 6.12+) to keep the host's X"
              + " displays out of reach; this kernel has Landlock ABI " + abi);
        } else {
          log.println("note: no Landlock scopes (ABI " + abi + "); the network namespace alone hides host displays");
        }
        ProcessBuilder pb = new ProcessBuilder(argv);
        pb.redirectError(ProcessBuilder.Redirect.appendTo(dir.resolve(SandboxDirs.LOGS).resolve("guest.err").toFile()));
        Process p;
        try {
          p = pb.start();
        } catch (IOException e) {
          throw new IllegalStateException("cannot start bubblewrap (install package bubblewrap): " + e.getMessage(), e);
        }
        bwrap.complete(p);
        exited.complete(p.waitFor()); // this thread stays: bwrap's --die-with-parent follows it
      } catch (Throwable e) {
        bwrap.completeExceptionally(e);
        exited.complete(-1);
      }
    }, "sandbox-bwrap");
    t.start();
    try {
      return bwrap.get(30, TimeUnit.SECONDS);
    } catch (java.util.concurrent.ExecutionException e) {
      throw e.getCause() instanceof Exception ex ? ex : e;
    }
  }

  private void awaitReady(Process p) throws Exception {
    CompletableFuture<Boolean> ready = new CompletableFuture<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = r.readLine()) != null; ) {
          if (line.equals(Guest.READY)) {
            ready.complete(true);
          } else {
            log.println("guest: " + line);
          }
        }
      } catch (IOException e) {
        // the guest ended
      }
      ready.complete(false);
    }, "sandbox-guest-out");
    reader.setDaemon(true);
    reader.start();
    boolean ok;
    try {
      ok = ready.get(READY_TIMEOUT_MS, TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IOException("the sandbox's desktop was not ready within " + READY_TIMEOUT_MS / 1000 + " s; see "
          + dir.resolve(SandboxDirs.LOGS));
    }
    if (!ok) {
      String err = tail(dir.resolve(SandboxDirs.LOGS).resolve("guest.err"));
      throw new IOException("the sandbox's desktop ended while starting" + (err.isEmpty() ? "" : ": " + err));
    }
  }

  static String tail(Path file) {
    try {
      List<String> lines = Files.readAllLines(file);
      return String.join(" | ", lines.subList(Math.max(0, lines.size() - 3), lines.size())).strip();
    } catch (IOException e) {
      return "";
    }
  }

  private boolean register(String url) throws IOException {
    if (spec.server() == null) {
      return false;
    }
    Map<String, String> body = new LinkedHashMap<>();
    body.put("id", spec.id());
    body.put("url", url);
    body.put("token", Files.readString(dir.resolve(SandboxDirs.TOKEN)).strip());
    body.put("name", spec.name());
    try {
      ServerClient.Response r = client(spec).post("/api/sandboxes", Json.MAPPER.writeValueAsString(body));
      if (r.ok()) {
        log.println("registered with " + spec.server() + " as " + spec.id());
        return true;
      }
      throw new IOException("serve at " + spec.server() + " refused the sandbox: HTTP " + r.status() + " " + r.body());
    } catch (RuntimeException | IOException e) {
      if (spec.serverRequired()) {
        throw e instanceof IOException io ? io : new IOException("cannot register with serve at " + spec.server()
            + ": " + e.getMessage(), e);
      }
      log.println("not registered: " + e.getMessage());
      return false;
    }
  }

  static ServerClient client(SandboxSpec spec) {
    URI server = URI.create(spec.server());
    return spec.serverTokenFile() == null ? ServerClient.local(server)
        : ServerClient.withTokenFile(server, Path.of(spec.serverTokenFile()));
  }

  /** Removes the sandbox from serve; a serve that is gone or never had it is no error. */
  static boolean unregister(SandboxSpec spec) {
    if (spec.server() == null) {
      return false;
    }
    try {
      return client(spec).delete("/api/sandboxes/" + spec.id()).ok();
    } catch (RuntimeException e) {
      return false;
    }
  }

  private void stopBubblewrap() {
    Process p = bwrap.getNow(null);
    if (p == null) {
      return;
    }
    try {
      p.getOutputStream().close(); // the guest's stdin: it stops in order
    } catch (IOException e) {
      // already closed
    }
    try {
      if (!p.waitFor(GRACE_MS, TimeUnit.MILLISECONDS)) {
        log.println("the guest did not stop within " + GRACE_MS + " ms; killing the sandbox");
        p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroyForcibly();
    }
    try {
      Files.deleteIfExists(dir.resolve(SandboxDirs.DOOR).resolve(SandboxDirs.SOCKET));
    } catch (IOException e) {
      // the folder goes with the sandbox anyway
    }
  }

  static String json(SandboxState s) {
    try {
      return Json.MAPPER.writeValueAsString(s);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
